// sdp_ram: an inferable simple-dual-port RAM (one write port, one registered read port), with a
//   load port for testbenches and for the constants a design keeps in RAM.
//
// A montlab building block: the coefficient banks of the Fermat-ring transform engine
//   (fermat_ntt) and the precomputed spectra of the spectral designs (ISM3 Sec. IV-E: simple
//   dual-port BRAMs, one dedicated read and one dedicated write port).
// Parameters: W word bits (W >= 1); DEPTH words (DEPTH >= 2); AW address bits (leave at the
//   default clog2(DEPTH)).
// Function: a write (we_i) stores wdata_i at waddr_i; the load port (ld_we_i, priority over
//   we_i) stores ld_data_i at ld_addr_i; rdata_o is the word at raddr_i of the previous cycle.
//   A read and a write of one address in the same cycle read the old word (read first).
// Ranges: addresses >= DEPTH are outside the contract (not stored, reads undefined).
// Left out: byte enables, a read enable, output registers beyond the read register, reset of
//   the contents (a word never written reads as X in simulation).
// Schedule: writes take effect at the clock edge; rdata_o changes at every edge.
`default_nettype none

module sdp_ram #(
  parameter integer W     = 8,
  parameter integer DEPTH = 16,
  parameter integer AW    = $clog2(DEPTH)
) (
  input  wire          clk_i,
  input  wire          we_i,
  input  wire [AW-1:0] waddr_i,
  input  wire [W-1:0]  wdata_i,
  input  wire [AW-1:0] raddr_i,
  output reg  [W-1:0]  rdata_o,
  input  wire          ld_we_i,
  input  wire [AW-1:0] ld_addr_i,
  input  wire [W-1:0]  ld_data_i
);
  generate
    if (W < 1 || DEPTH < 2 || AW < 1 || (1 << AW) < DEPTH) begin : g_illegal
      sdp_ram_illegal_parameters u_stop ();
    end
  endgenerate

  reg [W-1:0] mem [0:DEPTH-1];

  wire          we = we_i | ld_we_i;
  wire [AW-1:0] wa = ld_we_i ? ld_addr_i : waddr_i;
  wire [W-1:0]  wd = ld_we_i ? ld_data_i : wdata_i;

  always @(posedge clk_i) begin
    if (we) mem[wa] <= wd;
    rdata_o <= mem[raddr_i];
  end
endmodule
