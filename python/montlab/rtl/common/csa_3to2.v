// csa_3to2: one row of full adders, a 3:2 compressor on three W-bit words.
//
// Citation: carry-save adder (3:2 compressor), DRMMM paper eqs. (4)-(5) (Zhang et al.,
//   "Efficient and flexible different-radix Montgomery modular multiplication for hardware
//   implementation"). Python model: montlab.ref.drmmm.full_adder (same words, untruncated).
// Parameters: W word bits (W >= 1).
// Function: per bit position, s_o = a ^ b ^ c and the majority maj(a, b, c); the carry word is
//   maj moved to its weight, c_o = (maj << 1) mod 2^W. So s_o + c_o = a_i + b_i + c_i mod 2^W.
// Ranges: any a_i, b_i, c_i < 2^W; s_o, c_o < 2^W, c_o even.
// Left out: the carry out of bit W-1 (maj bit W-1) is dropped. A caller that needs it (end-
//   around carry, or exact sums) instantiates W + 1 bits with zero-extended inputs and reads
//   c_o[W] (csa_tree does this).
// Schedule: combinational, no clock.
`default_nettype none

module csa_3to2 #(
  parameter integer W = 8
) (
  input  wire [W-1:0] a_i,
  input  wire [W-1:0] b_i,
  input  wire [W-1:0] c_i,
  output wire [W-1:0] s_o,
  output wire [W-1:0] c_o
);
  wire [W-1:0] maj = (a_i & b_i) | (a_i & c_i) | (b_i & c_i);
  // The carry word at its weight, one bit wider; its top bit is the dropped carry out.
  wire [W:0]   cy  = {maj, 1'b0};

  assign s_o = a_i ^ b_i ^ c_i;
  assign c_o = cy[W-1:0];

  wire unused_cout = cy[W];
endmodule
