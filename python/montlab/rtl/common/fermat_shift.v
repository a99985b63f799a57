// fermat_shift: x * 2^e modulo q = 2^K + 1 with e given at run time (shifts only).
//
// Citation: the shift-only twiddles of ISM3 Sec. II-B ("a multiplication by omega can be simply
//   achieved by shift operation") and FMLM3 eq. (7) (SPEC 1.1). Python model:
//   montlab.transforms.fermat_mul_pow2 (FermatRing.mul_pow2).
// Parameters: K (q = 2^K + 1, K >= 2); EW exponent bits (default clog2(2K); 2^EW <= 4K, so one
//   conditional subtraction of 2K reduces any e_i).
// Function: y_o = x_i * 2^e_i mod q. Since 2^K = -1 (mod q), 2^(2K) = 1: e = e_i mod 2K; when
//   e >= K the result is negated and e - K is used. x * 2^e (e < K) = hi * 2^K + lo, which is
//   lo - hi (mod q): the bits shifted past K wrap around negated (rotate, negate the wrapped
//   part), and a negative difference gets + q.
// Ranges: x_i in [0, q) (K + 1 bits); any e_i < 2^EW; y_o in [0, q).
// Left out: constant exponents (a caller with a fixed e ties e_i; synthesis folds the shifter).
// Schedule: combinational, no clock: a (2K + 1)-bit barrel shifter, a K-bit subtraction, a
//   correction and a conditional negation.
`default_nettype none

module fermat_shift #(
  parameter integer K  = 8,
  parameter integer EW = $clog2(2 * K)
) (
  input  wire [K:0]    x_i,
  input  wire [EW-1:0] e_i,
  output wire [K:0]    y_o
);
  localparam integer SW = $clog2(K);   // shift amount bits: the shift is < K

  generate
    if (K < 2 || EW < 1 || EW > 31 || (1 << EW) > 4 * K) begin : g_illegal
      fermat_shift_illegal_parameters u_stop ();
    end
  endgenerate

  wire [K+1:0] q_c = {2'b01, {(K-1){1'b0}}, 1'b1};   // 2^K + 1

  // e = e_i mod 2K, then the negation and the shift below K.
  wire [31:0] e32 = {{(32-EW){1'b0}}, e_i};
  wire [31:0] e1  = (e32 >= 2 * K) ? e32 - 2 * K : e32;
  wire        neg = (e1 >= K);
  wire [31:0] sh32 = neg ? e1 - K : e1;
  wire [SW-1:0] sh = sh32[SW-1:0];

  // x * 2^sh < 2^(2K): lo = bits [0, K), hi = bits [K, 2K] (at most 2^(K-1)).
  wire [2*K:0] y   = {{K{1'b0}}, x_i} << sh;
  wire [K+1:0] r   = {2'b00, y[K-1:0]} - {1'b0, y[2*K:K]};
  wire [K+1:0] rq  = r + q_c;
  wire [K:0]   pos = r[K+1] ? rq[K:0] : r[K:0];
  wire [K+1:0] ng  = q_c - {1'b0, pos};

  assign y_o = (neg && pos != {(K+1){1'b0}}) ? ng[K:0] : pos;

  wire unused_bits = ^{sh32[31:SW], rq[K+1], ng[K+1]};
endmodule
