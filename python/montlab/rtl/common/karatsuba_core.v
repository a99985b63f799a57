// karatsuba_core: the recursive datapath of karatsuba_mul (one Karatsuba level per instance).
//
// Citation: ISM3 Sec. IV-C and Fig. 4 (Karatsuba [11], the (v + 2)-bit multipliers of Sec. V:
//   34, 66 and 130 bits on 3, 9 and 27 DSP48E1s, 7, 11 and 15 cycles; SPEC 2.6: 3^levels DSPs,
//   latency 3 + 4 levels). Python model: the integer product a * b.
// Parameters: W operand bits (W >= 1); BASE_W (>= 1): operands of at most BASE_W bits go to one
//   base multiplier (17: an unsigned 17 x 17 product fits one signed 18 x 18 DSP multiplier);
//   BASE_LAT (>= 0) ranks in a base multiplier (3: input, product and output registers, as the
//   paper's DSP48E1s); LEVEL_LAT (0..4) ranks per Karatsuba level; SW side-band bits (SW >= 1)
//   that travel with the operands (a sign, a tag). Derived: LEVELS (halvings until the operands
//   fit BASE_W), LATENCY = BASE_LAT + LEVELS * LEVEL_LAT; 3^LEVELS base multipliers.
// Function: p_o = a_i * b_i; side_o and valid_o are side_i and valid_i, delayed alike. A level
//   splits at L = ceil(W/2): a = aH 2^L + aL (aH zero-extended to L bits), c0 = aL bL,
//   c2 = aH bH, and the middle term |aL - aH| |bL - bH| with the sign of (aL - aH)(bL - bH)
//   gives c1 = c0 + c2 - (aL - aH)(bL - bH) = aL bH + aH bL. All three sub-products are L x L
//   unsigned (subtractive Karatsuba: no (L + 1)-bit operand, so the base operands stay within
//   one DSP); p = c2 2^(2L) + c1 2^L + c0.
// Ranges: any a_i, b_i < 2^W; p_o < 2^(2W).
// Left out: signed operands (fermat_mul multiplies magnitudes), the paper's adder-width savings
//   of Fig. 4 (adding only the high half of c0 to c1), and stalling. Instantiate karatsuba_mul
//   (a recursive module is not elaborated fully as the top of a Verilator run).
// Schedule: operands presented in cycle c give p_o, with their valid_i and side_i, in cycle
//   c + LATENCY (one product per clock; LATENCY = 0: combinational). valid_o is reset by rst_ni
//   (asynchronous, active low); the sub-multipliers carry no side band. A level's ranks, in
//   the order LEVEL_LAT adds them: 1 after the final sum, 2 after the split (|aL - aH|,
//   |bL - bH|, sign), 3 after c1, 4 after c0 + c2. A base multiplier registers its inputs
//   (BASE_LAT >= 1) and puts BASE_LAT - 1 ranks after the product. Data ranks have no reset.
`default_nettype none

module karatsuba_core #(
  parameter integer W         = 34,
  parameter integer BASE_W    = 17,
  parameter integer BASE_LAT  = 3,
  parameter integer LEVEL_LAT = 4,
  parameter integer SW        = 1
) (
  input  wire           clk_i,
  input  wire           rst_ni,
  input  wire           valid_i,
  input  wire [SW-1:0]  side_i,
  input  wire [W-1:0]   a_i,
  input  wire [W-1:0]   b_i,
  output wire           valid_o,
  output wire [SW-1:0]  side_o,
  output wire [2*W-1:0] p_o
);
  // Halvings until the operands fit: ceil-halving j times gives ceil(W / 2^j), which is at most
  // BASE_W exactly when 2^j >= ceil(W / BASE_W).
  localparam integer BW      = (BASE_W < 1) ? 1 : BASE_W;
  localparam integer LEVELS  = $clog2((W + BW - 1) / BW);
  localparam integer LATENCY = BASE_LAT + LEVELS * LEVEL_LAT;

  generate
    if (W < 1 || BASE_W < 1 || BASE_LAT < 0 || LEVEL_LAT < 0 || LEVEL_LAT > 4 || SW < 1)
    begin : g_illegal
      karatsuba_core_illegal_parameters u_stop ();
    end

    // The side band and the valid token, delayed by the whole latency.
    delay_line #(.W(SW), .N(LATENCY)) u_side (
      .clk_i(clk_i), .rst_ni(rst_ni), .d_i(side_i), .q_o(side_o)
    );
    delay_line #(.W(1), .N(LATENCY), .RST(1)) u_valid (
      .clk_i(clk_i), .rst_ni(rst_ni), .d_i(valid_i), .q_o(valid_o)
    );

    if (W <= BW) begin : g_base
      // One multiplier: input rank (BASE_LAT >= 1), the product, BASE_LAT - 1 ranks after it.
      localparam integer RIN = (BASE_LAT >= 1) ? 1 : 0;
      wire [W-1:0] a1, b1;
      delay_line #(.W(2 * W), .N(RIN)) u_in (
        .clk_i(clk_i), .rst_ni(1'b1), .d_i({a_i, b_i}), .q_o({a1, b1})
      );
      wire [2*W-1:0] prod = a1 * b1;
      delay_line #(.W(2 * W), .N(BASE_LAT - RIN)) u_out (
        .clk_i(clk_i), .rst_ni(1'b1), .d_i(prod), .q_o(p_o)
      );
    end else begin : g_level
      localparam integer L    = (W + 1) / 2;
      localparam integer H    = W - L;
      localparam integer R_FIN = (LEVEL_LAT >= 1) ? 1 : 0;
      localparam integer R_PRE = (LEVEL_LAT >= 2) ? 1 : 0;
      localparam integer R_C1  = (LEVEL_LAT >= 3) ? 1 : 0;
      localparam integer R_SUM = (LEVEL_LAT >= 4) ? 1 : 0;
      localparam integer SUB_LAT = LATENCY - LEVEL_LAT;   // one level fewer below

      // Split: the halves and the magnitudes and sign of the middle differences.
      wire [L-1:0] al = a_i[L-1:0];
      wire [L-1:0] ah = {{(L-H){1'b0}}, a_i[W-1:L]};
      wire [L-1:0] bl = b_i[L-1:0];
      wire [L-1:0] bh = {{(L-H){1'b0}}, b_i[W-1:L]};
      wire [L:0]   da = {1'b0, al} - {1'b0, ah};
      wire [L:0]   db = {1'b0, bl} - {1'b0, bh};
      wire [L:0]   na = -da;
      wire [L:0]   nb = -db;
      wire [L-1:0] ma = da[L] ? na[L-1:0] : da[L-1:0];
      wire [L-1:0] mb = db[L] ? nb[L-1:0] : db[L-1:0];
      wire         sg = da[L] ^ db[L];   // (aL - aH)(bL - bH) < 0 (or a zero factor)

      wire [L-1:0] al1, ah1, bl1, bh1, ma1, mb1;
      wire         sg1;
      delay_line #(.W(6 * L + 1), .N(R_PRE)) u_pre (
        .clk_i(clk_i), .rst_ni(1'b1), .d_i({al, ah, bl, bh, ma, mb, sg}),
        .q_o({al1, ah1, bl1, bh1, ma1, mb1, sg1})
      );

      // The three L x L sub-products, and the sign alongside them.
      wire [2*L-1:0] c0, c2, cm;
      karatsuba_core #(.W(L), .BASE_W(BASE_W), .BASE_LAT(BASE_LAT), .LEVEL_LAT(LEVEL_LAT))
        u_lo  (.clk_i(clk_i), .rst_ni(rst_ni), .valid_i(1'b0), .side_i(1'b0), .a_i(al1),
               .b_i(bl1), .valid_o(sub_v[0]), .side_o(sub_s[0]), .p_o(c0));
      karatsuba_core #(.W(L), .BASE_W(BASE_W), .BASE_LAT(BASE_LAT), .LEVEL_LAT(LEVEL_LAT))
        u_hi  (.clk_i(clk_i), .rst_ni(rst_ni), .valid_i(1'b0), .side_i(1'b0), .a_i(ah1),
               .b_i(bh1), .valid_o(sub_v[1]), .side_o(sub_s[1]), .p_o(c2));
      karatsuba_core #(.W(L), .BASE_W(BASE_W), .BASE_LAT(BASE_LAT), .LEVEL_LAT(LEVEL_LAT))
        u_mid (.clk_i(clk_i), .rst_ni(rst_ni), .valid_i(1'b0), .side_i(1'b0), .a_i(ma1),
               .b_i(mb1), .valid_o(sub_v[2]), .side_o(sub_s[2]), .p_o(cm));
      wire sg2;
      delay_line #(.W(1), .N(SUB_LAT)) u_sg (
        .clk_i(clk_i), .rst_ni(1'b1), .d_i(sg1), .q_o(sg2)
      );
      wire [2:0] sub_v;
      wire [2:0] sub_s;

      // c0 + c2 (2L + 1 bits).
      wire [2*L:0] c02 = {1'b0, c0} + {1'b0, c2};
      wire [2*L-1:0] c0_3, c2_3, cm_3;
      wire [2*L:0]   c02_3;
      wire           sg3;
      delay_line #(.W(8 * L + 2), .N(R_SUM)) u_sum (
        .clk_i(clk_i), .rst_ni(1'b1), .d_i({c0, c2, cm, c02, sg2}),
        .q_o({c0_3, c2_3, cm_3, c02_3, sg3})
      );

      // c1 = c0 + c2 -/+ middle (2L + 1 bits: c1 = aL bH + aH bL < 2^(2L+1)).
      wire [2*L+1:0] c1w = sg3 ? {1'b0, c02_3} + {2'b00, cm_3} : {1'b0, c02_3} - {2'b00, cm_3};
      wire [2*L:0]   c1  = c1w[2*L:0];
      wire [2*L-1:0] c0_4, c2_4;
      wire [2*L:0]   c1_4;
      delay_line #(.W(6 * L + 1), .N(R_C1)) u_c1 (
        .clk_i(clk_i), .rst_ni(1'b1), .d_i({c0_3, c2_3, c1}), .q_o({c0_4, c2_4, c1_4})
      );

      // p = c2 2^(2L) + c1 2^L + c0 (< 2^(2W) <= 2^(4L)).
      wire [4*L-1:0] pw = {c2_4, c0_4} + {{(L-1){1'b0}}, c1_4, {L{1'b0}}};
      delay_line #(.W(2 * W), .N(R_FIN)) u_fin (
        .clk_i(clk_i), .rst_ni(1'b1), .d_i(pw[2*W-1:0]), .q_o(p_o)
      );

      wire unused_top = ^{c1w[2*L+1], na[L], nb[L], sub_v, sub_s};
      if (4 * L > 2 * W) begin : g_unused_p
        wire unused_p = ^pw[4*L-1:2*W];
      end
    end
  endgenerate
endmodule
