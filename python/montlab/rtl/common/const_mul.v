// const_mul: a product by a constant, y = C x mod 2^W, by shifts and adds.
//
// A montlab building block shared by fermat_ntt (the twiddle exponents g floor(k/J) J) and
//   fmlm3 (the exponent c n of (A^n P)^-1): synthesis maps a `*` by a constant that is not a
//   power of two to a DSP48, which would then count beside the Karatsuba multipliers' DSPs.
// Parameters: C (0 <= C < 2^16); W result bits (W >= 1).
// Function: y_o = C x_i mod 2^W.
// Ranges: any x_i. Parameters outside their ranges stop elaboration.
// Left out: signed operands, pipelining (the callers' products are a few bits wide).
// Schedule: combinational, one adder per set bit of C.
`default_nettype none

module const_mul #(
  parameter integer C = 1,
  parameter integer W = 32
) (
  input  wire [W-1:0] x_i,
  output wire [W-1:0] y_o
);
  genvar i;
  generate
    if (C < 0 || C >= 65536 || W < 1) begin : g_illegal
      const_mul_illegal_parameters u_stop ();
    end
  endgenerate

  // g_bit[i].acc: (C mod 2^(i+1)) x, one wire per bit (no array: no combinational loop).
  for (i = 0; i < 16; i = i + 1) begin : g_bit
    wire [W-1:0] prev;
    wire [W-1:0] acc;
    if (i == 0) begin : g_first
      assign prev = {W{1'b0}};
    end else begin : g_next
      assign prev = g_bit[i-1].acc;
    end
    if (((C >> i) & 1) != 0) begin : g_add
      assign acc = prev + (x_i << i);
    end else begin : g_skip
      assign acc = prev;
    end
  end
  assign y_o = g_bit[15].acc;
  wire unused_x = ^x_i;   // C = 0, or bits shifted out when C is even
endmodule
