// counter63: a row of (6,3) counters, one per bit position of six W-bit words.
//
// Citation: DRMMM paper eq. (31) / Fig. 8(a) (Zhang et al., "Efficient and flexible
//   different-radix Montgomery modular multiplication for hardware implementation").
//   Python models: montlab.ref.drmmm.counter_6_3 (one column, eq. (31)) and
//   montlab.ref.drmmm.compress_6_3 (whole words, Fig. 8(a)).
// Parameters: W word bits (W >= 1); FORM 0 = the LUT form of eq. (31), 1 = the CSA form of
//   Fig. 8(a). Both forms compute the same three bits per column, so the outputs are equal.
// Function: column j holds the six bits x0..x5[j]; its count c (0..6) is written as
//   O0 + 2*O1 + 4*O2, with O0 at bit j of w0_o, O1 at bit j+1 of w1_o and O2 at bit j+2 of w2_o.
//   w1_o and w2_o are already shifted to their weights (w1_o[0] = 0, w2_o[1:0] = 0), and nothing
//   is truncated: w0_o + w1_o + w2_o = x0_i + x1_i + x2_i + x3_i + x4_i + x5_i exactly.
//   FORM 0 (eq. (31)): O0 = XOR of the six bits, O1 = XOR of the 15 pairwise ANDs (bit 1 of c,
//     as C(c,2) is odd iff bit 1 of c is set), O2 = OR of the 15 products of four bits (c >= 4;
//     the printed O2 is garbled, this is the reading of the Python model).
//   FORM 1 (Fig. 8(a)): full adders on (x0, x1, x2) and (x3, x4, x5), a half adder on their two
//     sums (giving O0 and a weight-2 bit), then a full adder on the three weight-2 bits, whose
//     sum is O1 and whose carry is O2.
// Ranges: any inputs < 2^W; w0_o < 2^W, w1_o < 2^(W+1), w2_o < 2^(W+2).
// Left out: a per-bit LUT6 mapping (left to synthesis: the expressions are word-wide).
// Schedule: combinational, no clock.
`default_nettype none

module counter63 #(
  parameter integer W    = 8,
  parameter integer FORM = 0
) (
  input  wire [W-1:0] x0_i,
  input  wire [W-1:0] x1_i,
  input  wire [W-1:0] x2_i,
  input  wire [W-1:0] x3_i,
  input  wire [W-1:0] x4_i,
  input  wire [W-1:0] x5_i,
  output wire [W-1:0] w0_o,
  output wire [W:0]   w1_o,
  output wire [W+1:0] w2_o
);
  // The count bits of every column, at column weight (not yet shifted).
  wire [W-1:0] o0, o1, o2;

  genvar gi, gj;
  generate
    if (FORM == 0) begin : g_lut
      wire [W-1:0] x [0:5];
      assign x[0] = x0_i;
      assign x[1] = x1_i;
      assign x[2] = x2_i;
      assign x[3] = x3_i;
      assign x[4] = x4_i;
      assign x[5] = x5_i;
      // Pair (i, j), i < j, is term K: pair[K] = x_i & x_j, quad[K] = the product of the four
      // other words (the words i and j are masked to all-ones).
      wire [W-1:0] pair [0:14];
      wire [W-1:0] quad [0:14];
      for (gi = 0; gi < 5; gi = gi + 1) begin : g_i
        for (gj = gi + 1; gj < 6; gj = gj + 1) begin : g_j
          localparam integer K = gi * 5 - (gi * (gi - 1)) / 2 + (gj - gi - 1);
          assign pair[K] = x[gi] & x[gj];
          assign quad[K] = (x[0] | {W{gi == 0}})
                         & (x[1] | {W{gi == 1 || gj == 1}})
                         & (x[2] | {W{gi == 2 || gj == 2}})
                         & (x[3] | {W{gi == 3 || gj == 3}})
                         & (x[4] | {W{gi == 4 || gj == 4}})
                         & (x[5] | {W{gj == 5}});
        end
      end
      assign o0 = x[0] ^ x[1] ^ x[2] ^ x[3] ^ x[4] ^ x[5];
      assign o1 = pair[0] ^ pair[1] ^ pair[2]  ^ pair[3]  ^ pair[4]  ^ pair[5]  ^ pair[6]
                ^ pair[7] ^ pair[8] ^ pair[9]  ^ pair[10] ^ pair[11] ^ pair[12] ^ pair[13]
                ^ pair[14];
      assign o2 = quad[0] | quad[1] | quad[2]  | quad[3]  | quad[4]  | quad[5]  | quad[6]
                | quad[7] | quad[8] | quad[9]  | quad[10] | quad[11] | quad[12] | quad[13]
                | quad[14];
    end else begin : g_csa
      // Two full adders (weight-1 sums s1, s2; weight-2 carries c1, c2).
      wire [W-1:0] s1 = x0_i ^ x1_i ^ x2_i;
      wire [W-1:0] c1 = (x0_i & x1_i) | (x0_i & x2_i) | (x1_i & x2_i);
      wire [W-1:0] s2 = x3_i ^ x4_i ^ x5_i;
      wire [W-1:0] c2 = (x3_i & x4_i) | (x3_i & x5_i) | (x4_i & x5_i);
      // The half adder on the two sums (weight-2 carry h), then a full adder on c1, c2, h.
      wire [W-1:0] h  = s1 & s2;
      assign o0 = s1 ^ s2;
      assign o1 = c1 ^ c2 ^ h;
      assign o2 = (c1 & c2) | (c1 & h) | (c2 & h);
    end
  endgenerate

  assign w0_o = o0;
  assign w1_o = {o1, 1'b0};
  assign w2_o = {o2, 2'b00};
endmodule
