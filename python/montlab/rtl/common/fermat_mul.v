// fermat_mul: a pipelined product modulo q = 2^K + 1 of two redundant signed residues.
//
// Citation: ISM3 Sec. IV-B (signed residues in [-2^v - 1, 2^v], stored in v + 2 bits) and
//   Sec. IV-C (the (v + 2)-bit Karatsuba multiplier), reduced by Algorithm 1 as corrected in
//   SPEC 2.5. Python model: montlab.transforms.ism3_alg1_step and ism3_alg1 on the product.
// Parameters: K (q = 2^K + 1, K >= 2); BASE_W, BASE_LAT, LEVEL_LAT as karatsuba_mul, which
//   multiplies at the paper's width K + 2; RED_LAT (0 or 1) ranks after the reduction; TW
//   tag bits (TW >= 1) that travel with the operands.
//   The latency is u_mul.u_core.LATENCY + RED_LAT (see Schedule).
// Function: A = a_i * b_i (two's complement in); step_o = one Algorithm 1 step on |A| with the
//   sign restored, res_o = A mod q; tag_o = tag_i.
// Ranges: a_i, b_i in [-2^K - 1, 2^K] ((K + 2)-bit two's complement; their magnitudes, at most
//   2^K + 1, keep |A| <= 2^(2K+1), fermat_reduce's bound); step_o a (K + 3)-bit two's-complement
//   word in [-2^K - 2, 2^K + 2] congruent to A (in [-2^K + 1, 2^K - 1] when |A| < 2^(2K));
//   res_o in [0, q). Operands outside [-2^K - 1, 2^K] are outside the contract.
// Left out: the sum T + K of ISM3 step 9 (rtl/ism3 reduces the signed sum itself), stalling.
// Schedule: operands presented in cycle c give valid_o, step_o and res_o in cycle
//   c + u_mul.u_core.LATENCY + RED_LAT (3 + 4 levels + 1 at the defaults: 8, 12 and 16 cycles
//   for K = 32, 64 and 128). The sign-magnitude split is combinational in front of the
//   multiplier's first rank, which carries the product's sign and valid_i in its side band;
//   the reduction follows its last rank. valid_o is reset by rst_ni.
`default_nettype none

module fermat_mul #(
  parameter integer K         = 32,
  parameter integer BASE_W    = 17,
  parameter integer BASE_LAT  = 3,
  parameter integer LEVEL_LAT = 4,
  parameter integer RED_LAT   = 1,
  parameter integer TW        = 1
) (
  input  wire          clk_i,
  input  wire          rst_ni,
  input  wire          valid_i,
  input  wire [TW-1:0] tag_i,
  input  wire [K+1:0]  a_i,
  input  wire [K+1:0]  b_i,
  output wire          valid_o,
  output wire [TW-1:0] tag_o,
  output wire [K+2:0]  step_o,
  output wire [K:0]    res_o
);
  localparam integer MW = K + 2;   // the paper's (v + 2)-bit multiplier

  generate
    if (K < 2 || RED_LAT < 0 || RED_LAT > 1 || TW < 1) begin : g_illegal
      fermat_mul_illegal_parameters u_stop ();
    end
  endgenerate

  // Sign and magnitude of each operand (magnitudes <= 2^K + 1 < 2^(K+1)).
  wire [K+1:0] na = -a_i;
  wire [K+1:0] nb = -b_i;
  wire [MW-1:0] ma = a_i[K+1] ? na : a_i;
  wire [MW-1:0] mb = b_i[K+1] ? nb : b_i;
  wire          sg = a_i[K+1] ^ b_i[K+1];

  // The multiplier carries the sign, the tag and the valid token alongside the product.
  wire [2*MW-1:0] prod;
  wire            sg1, v1;
  wire [TW-1:0]   tag1;
  karatsuba_mul #(.W(MW), .BASE_W(BASE_W), .BASE_LAT(BASE_LAT), .LEVEL_LAT(LEVEL_LAT),
                  .SW(1 + TW))
    u_mul (.clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .side_i({tag_i, sg}), .a_i(ma),
           .b_i(mb), .valid_o(v1), .side_o({tag1, sg1}), .p_o(prod));

  // |A| <= 2^(2K+1): the low 2K + 2 bits hold it (the top two product bits are zero).
  wire [K+2:0] st;
  wire [K:0]   rs;
  fermat_reduce #(.K(K)) u_red (.neg_i(sg1), .mag_i(prod[2*K+1:0]), .step_o(st), .res_o(rs));

  delay_line #(.W(2 * K + 4 + TW), .N(RED_LAT)) u_out (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({st, rs, tag1}), .q_o({step_o, res_o, tag_o})
  );
  delay_line #(.W(1), .N(RED_LAT), .RST(1)) u_v2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(v1), .q_o(valid_o)
  );

  wire unused_top = ^{prod[2*MW-1:2*K+2]};
endmodule
