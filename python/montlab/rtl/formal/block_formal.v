// block_formal: the formal harness of the combinational Fermat-ring blocks under ISM3 and
//   FMLM3 (rtl/common): fermat_addsub, fermat_shift and fermat_reduce. One block per run,
//   chosen by `BLOCK_ADDSUB, `BLOCK_SHIFT or `BLOCK_REDUCE.
//
// Citation: each block's function as its paper states it, written here with Verilog's % on
//   wide unsigned integers (SMT bvurem), never taken from the block: the butterfly sums of
//   ISM3 eq. (3) (a + b, a - b mod 2^K + 1); the shift twiddles of ISM3 Sec. II-B
//   (x 2^e mod 2^K + 1); ISM3 Algorithm 1's signed step and residue (SPEC 2.5: a value
//   congruent to A in [-2^(K+1), 2^(K+1)], and A mod 2^K + 1).
// Parameters: K (q = 2^K + 1) and EW (fermat_shift's exponent bits) for the Fermat blocks.
// Properties, for every input in the block's contract (the inputs are free and the blocks
//   have no state, so a one-step check covers every input):
//   * fermat_addsub: a, b < q give s = (a + b) mod q and d = (a - b) mod q;
//   * fermat_shift: x < q and any e give y = x 2^e mod q;
//   * fermat_reduce: mag <= 2^(2K+1) and a sign give res = A mod q, step = A (mod q) in
//     [-2^(K+1), 2^(K+1)], and in [-2^K + 1, 2^K - 1] when mag < 2^(2K) (ISM3 Sec. IV-B).
// Left out: NTT64's eq. (3) reduction (ntt64_reduce: a remainder of 99 or 192 bits by
//   2^64 - 2^32 + 1 did not finish in 20 minutes); the clocked blocks (butterfly, multipliers,
//   transform engine) and ISM3 and NTT64 themselves, whose products take hundreds of cycles
//   over RAM state. The simulations check them step by step.
`default_nettype none

module block_formal #(
  parameter integer K  = 8,
  parameter integer EW = $clog2(2 * K)
) (
  input wire [K:0]     a_i,
  input wire [K:0]     b_i,
  input wire [EW-1:0]  e_i,
  input wire           neg_i,
  input wire [2*K+1:0] mag_i
);
  // q = 2^K + 1 in widths wide enough for each golden expression.
  localparam [K+1:0] Q = {2'b01, {(K-1){1'b0}}, 1'b1};
  wire unused = ^{a_i, b_i, e_i, neg_i, mag_i};

`ifdef BLOCK_ADDSUB
  wire [K:0] s, d;
  fermat_addsub #(.K(K)) dut (.a_i(a_i), .b_i(b_i), .s_o(s), .d_o(d));
  wire [K+1:0] sum  = {1'b0, a_i} + {1'b0, b_i};
  wire [K+1:0] diff = {1'b0, a_i} + Q - {1'b0, b_i};
  always @* begin
    if (a_i < Q && b_i < Q) begin
      assert ({1'b0, s} == sum % Q);
      assert ({1'b0, d} == diff % Q);
    end
  end
`endif

`ifdef BLOCK_SHIFT
  wire [K:0] y;
  fermat_shift #(.K(K), .EW(EW)) dut (.x_i(a_i), .e_i(e_i), .y_o(y));
  localparam integer XW = K + 1 + (1 << EW);  // x 2^e for every e < 2^EW
  wire [XW-1:0] shifted = {{(1 << EW){1'b0}}, a_i} << e_i;
  wire [XW-1:0] q_x = {{(XW - K - 2){1'b0}}, Q};
  always @* begin
    if (a_i < Q) assert ({{(XW - K - 1){1'b0}}, y} == shifted % q_x);
  end
`endif

`ifdef BLOCK_REDUCE
  wire [K+2:0] step;
  wire [K:0]   res;
  fermat_reduce #(.K(K)) dut (.neg_i(neg_i), .mag_i(mag_i), .step_o(step), .res_o(res));
  wire [2*K+1:0] q_m = {{K{1'b0}}, Q};
  localparam [2*K+1:0] MAG_MAX = {1'b1, {(2 * K + 1){1'b0}}};  // 2^(2K+1)
  localparam [2*K+1:0] MAG_TIGHT = {2'b01, {(2 * K){1'b0}}};   // 2^(2K)
  wire [2*K+1:0] mag_mod = mag_i % q_m;            // |A| mod q
  wire [2*K+1:0] a_mod = (neg_i && mag_mod != 0) ? q_m - mag_mod : mag_mod;  // A mod q
  // step + 2q lies in [0, 4q) for step >= -2^(K+1) > -2q: its residue is the step's.
  wire [K+3:0] q_s = {2'b00, Q};
  wire [K+3:0] step_2q = {step[K+2], step} + {q_s[K+2:0], 1'b0};
  wire signed [K+2:0] step_s = step;
  always @* begin
    if (mag_i <= MAG_MAX) begin
      assert ({{(K + 1){1'b0}}, res} == a_mod);
      assert (step_s >= -(1 <<< (K + 1)) && step_s <= (1 <<< (K + 1)));
      assert (step_2q % q_s == {3'b000, a_mod[K:0]});
      if (mag_i < MAG_TIGHT)
        assert (step_s >= -(1 <<< K) + 1 && step_s <= (1 <<< K) - 1);
    end
  end
`endif

endmodule
