// ntt64_twiddle: the twiddle ROM of one ModMul lane: omega^(j k) (forward) or
//   omega^(-j k) / S^2 (inverse, the 1/S^2 of the inverse transform folded in).
//
// Citation: the NTT paper Sec. IV-C ("modular multiplied by the twiddle factors stored in
//   ROMs"); the four-step twiddles of montlab.transforms.ntt64_four_step and the lane order of
//   montlab.hw.ntt64_schedule (the model that fixes this dataflow).
// Parameters: S side (8, 16 or 32: S^2 = 64, 256, 1024 points; omega = NTT64_ROOTS[S], the
//   first root from generator 7 with omega^S = 2^(192/S)); LANE l < L = S/4.
// Function: rdata_o = T(inv_i, j_i, m_i): output k' = m L + l of DFT j is index k = k'
//   (forward) or -k' mod S (inverse), and T = omega^(j k) or omega^(-j k) S^-2 mod p.
// Ranges: j_i < S, m_i < 4; rdata_o in [0, p).
// Left out: a write port; sharing one ROM between lanes (each lane holds its 8 S words).
// Schedule: registered read: rdata_o shows the entry addressed in the previous cycle. The
//   contents are computed at elaboration by constant functions (square and multiply mod p).
`default_nettype none

module ntt64_twiddle #(
  parameter integer S    = 8,
  parameter integer LANE = 0
) (
  input  wire                 clk_i,
  input  wire                 inv_i,
  input  wire [$clog2(S)-1:0] j_i,
  input  wire [1:0]           m_i,
  output reg  [63:0]          rdata_o
);
  localparam [63:0] P = 64'hFFFFFFFF00000001;
  localparam integer L = S / 4;
  localparam integer N = S * S;
  localparam [63:0] ROOT = (S == 8) ? 64'd8 : (S == 16) ? 64'hC2DED1724375E12E
                                                        : 64'h3DA05FEE70C4F2BA;
  localparam [63:0] N64 = 64'd1 << (2 * $clog2(S));  // N = S^2
  localparam [63:0] INV_N = P - (P - 64'd1) / N64;  // N^-1 mod p: N (p - (p-1)/N) = 1 mod p

  generate
    if (!(S == 8 || S == 16 || S == 32) || LANE < 0 || LANE >= L) begin : g_illegal
      ntt64_twiddle_illegal_parameters u_stop ();
    end
  endgenerate

  function automatic [63:0] mulmod(input [63:0] a, input [63:0] b);
    reg [127:0] t;
    begin
      t = {64'd0, a} * {64'd0, b};
      t = t % {64'd0, P};
      mulmod = t[63:0];
    end
  endfunction

  function automatic [63:0] powmod(input [63:0] base, input integer e);
    integer i;
    reg [63:0] acc;
    begin
      acc = 64'd1;
      for (i = 15; i >= 0; i = i - 1) begin
        acc = mulmod(acc, acc);
        if (((e >> i) & 1) != 0) acc = mulmod(acc, base);
      end
      powmod = acc;
    end
  endfunction

  reg [63:0] rom [0:8*S-1];  // address {inv, j, m}
  integer inv, j, m, k;
  initial begin
    for (inv = 0; inv < 2; inv = inv + 1)
      for (j = 0; j < S; j = j + 1)
        for (m = 0; m < 4; m = m + 1) begin
          k = m * L + LANE;
          if (inv == 1) k = (S - k) % S;
          rom[(inv * S + j) * 4 + m] = (inv == 1)
            ? mulmod(powmod(ROOT, (N - (j * k) % N) % N), INV_N)
            : powmod(ROOT, (j * k) % N);
        end
  end

  always @(posedge clk_i) rdata_o <= rom[{inv_i, j_i, m_i}];
endmodule

`default_nettype wire
