// fermat_addsub: a + b and a - b modulo q = 2^K + 1.
//
// Citation: the butterfly sums of ISM3 eq. (3) and FMLM3 eqs. (7)-(9) (SPEC 1.2, 2.2). Python
//   model: the sums of montlab.transforms._ism3_stage and _cg_network.
// Parameters: K (q = 2^K + 1, K >= 2).
// Function: s_o = (a_i + b_i) mod q, d_o = (a_i - b_i) mod q.
// Ranges: a_i, b_i in [0, q) (K + 1 bits, at most 2^K); s_o, d_o in [0, q).
// Left out: the redundant signed inputs of ISM3 Sec. IV-B (a caller normalises them first).
// Schedule: combinational, no clock. Each output is one (K + 2)-bit adder and one correction
//   adder whose sign selects.
`default_nettype none

module fermat_addsub #(
  parameter integer K = 8
) (
  input  wire [K:0] a_i,
  input  wire [K:0] b_i,
  output wire [K:0] s_o,
  output wire [K:0] d_o
);
  generate
    if (K < 2) begin : g_illegal
      fermat_addsub_illegal_parameters u_stop ();
    end
  endgenerate

  wire [K+1:0] q_c = {2'b01, {(K-1){1'b0}}, 1'b1};   // 2^K + 1

  // a + b <= 2^(K+1); a + b - q is negative exactly when a + b < q.
  wire [K+1:0] sum  = {1'b0, a_i} + {1'b0, b_i};
  wire [K+1:0] sumq = sum - q_c;
  assign s_o = sumq[K+1] ? sum[K:0] : sumq[K:0];

  // a - b in [-2^K, 2^K]; + q when negative.
  wire [K+1:0] dif  = {1'b0, a_i} - {1'b0, b_i};
  wire [K+1:0] difq = dif + q_c;
  assign d_o = dif[K+1] ? difq[K:0] : dif[K:0];

  // Only the sign bit of each corrected word is read above its K + 1 result bits.
  wire unused_top = ^{sum[K+1], difq[K+1]};
endmodule
