// ntt64_pe: one output of a shift-only DFT block modulo p = 2^64 - 2^32 + 1 (the paper's
//   radix-16 processing element, with fixed rotations and optional negations).
//
// Citation: the NTT paper's PE (eq. (2) and Fig. 2: 192-bit rotations, an end-around-carry
//   carry-save sum, an end-around-carry add and the eq. (3) reduction; SPEC 4.4). Python model:
//   montlab.transforms.shift_dft (pe16 is STEP = 12, N = 16), per output index.
// Parameters: N inputs (N >= 2); STEP and K0 (K0 >= 0, STEP >= 0): input n is rotated by
//   (STEP n K0) mod 192 (a fixed wiring: omega = 2^STEP, output index K0); STAGES register
//   ranks in the carry-save tree (csa_tree's STAGES, >= 1).
// Function: y_o = sum_n (-1)^neg_i[n] x_n 2^((STEP n K0) mod 192) mod p, x_n = x_i[64 n +: 64].
//   In 192 bits, 2^s is a rotation (2^192 = 1 mod 2^192 - 1, and p | 2^192 - 1) and -x the
//   bitwise complement; the sum is taken mod 2^192 - 1 (end-around carry), then reduced by
//   eq. (3). The negations give the sign pattern of a larger DFT cut into N x N blocks
//   (2^96 = -1).
// Ranges: any x_n < 2^64; y_o in [0, p).
// Left out: run-time rotation amounts (an inverse transform reverses the output order
//   instead), the scaling of an inverse transform (folded into constants by the caller).
// Schedule: inputs in cycle c give valid_o and y_o in cycle c + LATENCY, LATENCY = STAGES + 2
//   (the tree's ranks, one after the end-around-carry add, one after the reduction); one
//   input set per clock. valid_o is reset by rst_ni.
`default_nettype none

module ntt64_pe #(
  parameter integer N      = 16,
  parameter integer STEP   = 12,
  parameter integer K0     = 1,
  parameter integer STAGES = 2
) (
  input  wire            clk_i,
  input  wire            rst_ni,
  input  wire            valid_i,
  input  wire [64*N-1:0] x_i,
  input  wire [N-1:0]    neg_i,
  output wire            valid_o,
  output wire [63:0]     y_o
);
  localparam integer LATENCY = STAGES + 2;
  generate
    if (N < 2 || STEP < 0 || K0 < 0 || STAGES < 1) begin : g_illegal
      ntt64_pe_illegal_parameters u_stop ();
    end
  endgenerate

  // Rotated (and complemented) 192-bit words.
  wire [192*N-1:0] words;
  genvar n;
  generate
    for (n = 0; n < N; n = n + 1) begin : g_in
      localparam integer ROT = (STEP * n * K0) % 192;
      wire [191:0] wide = {128'b0, x_i[64*n +: 64]};
      wire [191:0] rot  = (ROT == 0) ? wide : ((wide << ROT) | (wide >> (192 - ROT)));
      assign words[192*n +: 192] = neg_i[n] ? ~rot : rot;
    end
  endgenerate

  // Carry-save sum mod 2^192 - 1, then the end-around-carry add of the two words.
  wire [383:0] cs;
  csa_tree #(.W(192), .NIN(N), .NOUT(2), .CELL(0), .EAC(1), .STAGES(STAGES)) u_tree (
    .clk_i(clk_i), .in_i(words), .out_o(cs)
  );
  wire [192:0] s1 = {1'b0, cs[191:0]} + {1'b0, cs[383:192]};
  wire [191:0] s2 = s1[191:0] + {191'b0, s1[192]};
  wire [191:0] s2_q;
  delay_line #(.W(192), .N(1)) u_r1 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(s2), .q_o(s2_q));

  wire [63:0] y;
  ntt64_reduce u_red (.z_i(s2_q), .res_o(y));
  delay_line #(.W(64), .N(1)) u_r2 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(y), .q_o(y_o));
  delay_line #(.W(1), .N(LATENCY), .RST(1)) u_v (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(valid_i), .q_o(valid_o)
  );
endmodule
