// ntt64_reduce: a 192-bit word modulo p = 2^64 - 2^32 + 1 by eq. (3), with the +-p and +2p
//   corrections.
//
// Citation: the NTT paper's eq. (3) (SPEC 4.4; docs/errata.md: the raw sum can need +2p, not
//   only +p). Python model: montlab.transforms.reduce_eq3.
// Parameters: none (p is fixed).
// Function: z = 2^160 a + 2^128 b + 2^96 c + 2^64 d + 2^32 e + f (32-bit limbs); since
//   2^96 = -1 and 2^64 = 2^32 - 1 (mod p), r = (2^32 e + f) + (2^32 d + a) - (2^32 b + c) -
//   (2^32 a + d) = z (mod p), r in [-(2p - 2), 2p - 2]; res_o is the one of r - p, r, r + p,
//   r + 2p in [0, p).
// Ranges: any z_i < 2^192 (all ones, the end-around-carry form of 0, gives 0); res_o in [0, p).
// Left out: pipelining (callers register around it).
// Schedule: combinational, no clock: one four-term sum (67 bits) and three parallel
//   corrections selected by their signs.
`default_nettype none

module ntt64_reduce (
  input  wire [191:0] z_i,
  output wire [63:0]  res_o
);
  localparam [67:0] P = 68'h0_FFFF_FFFF_0000_0001;
  wire [31:0] a = z_i[191:160], b = z_i[159:128], c = z_i[127:96];
  wire [31:0] d = z_i[95:64],   e = z_i[63:32],    f = z_i[31:0];
  // The four terms in 68-bit two's complement (|r| < 2^66).
  wire [67:0] r = {4'b0, e, f} + {4'b0, d, a} - {4'b0, b, c} - {4'b0, a, d};
  wire [67:0] rm = r - P;
  wire [67:0] rp = r + P;
  wire [67:0] rp2 = r + {P[66:0], 1'b0};
  // r >= p: r - p; r in [0, p): r; r in [-p, 0): r + p; r < -p: r + 2p.
  wire [67:0] sel = !r[67] ? (rm[67] ? r : rm) : (rp[67] ? rp2 : rp);
  assign res_o = sel[63:0];
  wire unused = ^sel[67:64];
endmodule
