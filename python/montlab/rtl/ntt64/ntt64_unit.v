// ntt64_unit: the radix-N unit: N processing elements on the same N inputs, PE k0 computing
//   output k0 of one N x N block of a 2N-point shift-only DFT (the paper's radix-16 unit of 16
//   PEs).
//
// Citation: the NTT paper Sec. III (the radix-16 unit, used 4 times per 32-point DFT; SPEC 4.4
//   and 4.5). Python model: montlab.transforms.shift_dft; the block reading is
//   X(k0 + N k1) = sum_n1 sum_n0 x(n0 + N n1) 2^(STEP n0 k0) (-1)^(n0 k1 + n1 k0), valid when
//   2^(STEP N) = -1 (STEP N = 96 mod 192) and N is even: STEP = 6, N = 16 (the 32-point DFT,
//   root 64) and STEP = 24, N = 4 (the 8-point DFT, root 2^24).
// Parameters: N inputs and PEs (N >= 2); STEP (omega_2N = 2^STEP); STAGES as ntt64_pe.
// Function: for block (n1_i, k1_i), y_o[64 k0 +: 64] = sum_n0 x_n0 2^(STEP n0 k0)
//   (-1)^(n0 k1 + n1 k0) mod p for k0 < N. Block (0, 0) has no negations: with STEP = 12,
//   N = 16 it is the paper's radix-16 DFT (pe16).
// Ranges: any x_n < 2^64; outputs in [0, p).
// Left out: the sum of the two n1 blocks (the caller accumulates, or feeds both halves in two
//   cycles), run-time rotations.
// Schedule: as ntt64_pe: LATENCY = STAGES + 2, one block per clock.
`default_nettype none

module ntt64_unit #(
  parameter integer N      = 16,
  parameter integer STEP   = 6,
  parameter integer STAGES = 2
) (
  input  wire            clk_i,
  input  wire            rst_ni,
  input  wire            valid_i,
  input  wire            n1_i,
  input  wire            k1_i,
  input  wire [64*N-1:0] x_i,
  output wire            valid_o,
  output wire [64*N-1:0] y_o
);
  wire [N-1:0] vo;
  genvar k, n;
  generate
    for (k = 0; k < N; k = k + 1) begin : g_pe
      wire [N-1:0] neg;
      for (n = 0; n < N; n = n + 1) begin : g_sign
        // (-1)^(n0 k1 + n1 k0): the parity of n0 k1 + n1 k0.
        assign neg[n] = ((n % 2 == 1) && k1_i) ^ ((k % 2 == 1) && n1_i);
      end
      ntt64_pe #(.N(N), .STEP(STEP), .K0(k), .STAGES(STAGES)) u_pe (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .x_i(x_i), .neg_i(neg),
        .valid_o(vo[k]), .y_o(y_o[64*k +: 64])
      );
    end
  endgenerate
  assign valid_o = vo[0];
  wire unused = ^vo[N-1:1];
endmodule
