// fermat_reduce: a signed product modulo q = 2^K + 1, one redundant step and the full residue.
//
// Citation: ISM3 Algorithm 1, step 2, applied once to |A| with the sign restored afterwards
//   (SPEC 2.5, ISM3 erratum 5), and Sec. IV-B's redundant signed residues. Python model:
//   montlab.transforms.ism3_alg1_step (step_o) and ism3_alg1 (res_o).
// Parameters: K (q = 2^K + 1, K >= 2).
// Function: A = (neg_i ? -1 : 1) * mag_i. step_o = sign(A) * ((|A| mod 2^K) - floor(|A| / 2^K)),
//   a (K + 3)-bit two's-complement word congruent to A; res_o = A mod q.
// Ranges: mag_i <= 2^(2K+1) (it holds the product of two magnitudes <= 2^K + 1); step_o in
//   [-2^(K+1), 2^(K+1)], and in [-2^K + 1, 2^K - 1] when mag_i < 2^(2K) (Sec. IV-B's claim);
//   res_o in [0, q). A larger mag_i is outside the contract (res_o is then not reduced).
// Left out: the loop of Algorithm 1 (step_o is one step; res_o selects among step_o + 2q,
//   step_o + q, step_o and step_o - q, which covers the whole step range).
// Schedule: combinational, no clock: one K-bit subtraction, a conditional negation and three
//   correction adders.
`default_nettype none

module fermat_reduce #(
  parameter integer K = 8
) (
  input  wire         neg_i,
  input  wire [2*K+1:0] mag_i,
  output wire [K+2:0] step_o,
  output wire [K:0]   res_o
);
  generate
    if (K < 2) begin : g_illegal
      fermat_reduce_illegal_parameters u_stop ();
    end
  endgenerate

  wire [K+3:0] q_c  = {4'b0001, {(K-1){1'b0}}, 1'b1};   // q in K + 4 bits
  wire [K+3:0] q2_c = {q_c[K+2:0], 1'b0};               // 2q

  // One step on the magnitude: lo - hi with lo < 2^K and hi <= 2^(K+1).
  wire [K+2:0] m1 = {3'b000, mag_i[K-1:0]} - {1'b0, mag_i[2*K+1:K]};
  wire [K+2:0] st = neg_i ? -m1 : m1;
  assign step_o = st;

  // st + 2q, st + q, st, st - q in K + 4 bits; the signs select the one in [0, q).
  wire [K+3:0] s   = {st[K+2], st};
  wire [K+3:0] sq2 = s + q2_c;
  wire [K+3:0] sq1 = s + q_c;
  wire [K+3:0] sm1 = s - q_c;
  wire [K+3:0] res = sq1[K+3] ? sq2 : (s[K+3] ? sq1 : (sm1[K+3] ? s : sm1));
  assign res_o = res[K:0];

  wire unused_top = ^res[K+3:K+1];
endmodule
