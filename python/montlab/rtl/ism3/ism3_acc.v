// ism3_acc: the serial three-trunk accumulator of ISM3 Fig. 2, with the eq. (7) look-ahead.
//
// Citation: ISM3 Sec. III-C (Fig. 2: each coefficient as three mu-bit trunks, accumulated by
//   shift and add; mod r keeps the s low columns, div r drops them; eq. (7) epsilon), as
//   corrected in SPEC 2.4. Python model: montlab.ref.ism3 (from_words(...) % r for mod r,
//   divide_by_r for div r).
// Parameters: V (coefficient words are V + 1 bits, q = 2^V + 1); MU digit bits (b = 2^MU).
// Function: after clear_i, each valid coefficient c_j (c = t0 + t1 b + t2 b^2, trunks of MU
//   bits) adds column j = t0(c_j) + t1(c_j-1) + t2(c_j-2) + carry; digit_o is the column mod b
//   and the carry the rest. mod mode (div_i = 0 at clear_i): coefficients c_0, c_1, ... give
//   the digits of eval(c) from column 0, carry-in 0. div mode (div_i = 1): the first two
//   coefficients c_s-2, c_s-1 only prime the trunks; the carry into column s is
//   eps = ceil((floor(4 t0(c_s-1) / b) + floor(4 t1(c_s-2) / b)) / 4) (eps_o), and c_s, ...
//   give the digits of the truncated quotient plus eps, i.e. eval(c) / r when r divides it.
// Ranges: coefficients < 2^(3 MU) (bits above 3 MU are ignored); the look-ahead is exact for
//   s <= 2^(MU-2) (SPEC 2.4), which the ISM3 parameter rules ensure. eps_o in {0, 1, 2}.
// Left out: the final carry (the designs read s digits: the columns above them are zero).
// Schedule: clear_i and valid_i at a clock edge; a digit is on digit_o with valid_o in the
//   cycle after its coefficient (priming coefficients give none). clear_i wins over valid_i.
`default_nettype none

module ism3_acc #(
  parameter integer V  = 32,
  parameter integer MU = 13
) (
  input  wire          clk_i,
  input  wire          rst_ni,
  input  wire          clear_i,
  input  wire          div_i,
  input  wire          valid_i,
  input  wire [V:0]    coef_i,
  output wire          valid_o,
  output wire [MU-1:0] digit_o,
  output wire [1:0]    eps_o
);
  localparam integer CW = 3 * MU + V + 1;   // wide enough for both slicings

  generate
    if (V < 2 || MU < 2) begin : g_illegal
      ism3_acc_illegal_parameters u_stop ();
    end
  endgenerate

  wire [CW-1:0] cw = {{(3 * MU){1'b0}}, coef_i};
  wire [MU-1:0] t0 = cw[MU-1:0];
  wire [MU-1:0] t1 = cw[2*MU-1:MU];
  wire [MU-1:0] t2 = cw[3*MU-1:2*MU];

  reg [MU-1:0] p1_t1_q, p1_t2_q, p2_t2_q;   // trunks of c_j-1 (t1, t2) and c_j-2 (t2)
  reg [1:0]    carry_q, eps_q, prime_q;
  reg          valid_q;
  reg [MU-1:0] digit_q;

  wire [MU+1:0] col = {2'b00, t0} + {2'b00, p1_t1_q} + {2'b00, p2_t2_q} + {{MU{1'b0}}, carry_q};
  // eq. (7) on the second priming coefficient c_s-1 (t0 here) and c_s-2 (its t1, held).
  wire [2:0]    delta = {1'b0, t0[MU-1:MU-2]} + {1'b0, p1_t1_q[MU-1:MU-2]};
  wire [3:0]    eps_n = ({1'b0, delta} + 4'd3) >> 2;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p1_t1_q <= {MU{1'b0}};
      p1_t2_q <= {MU{1'b0}};
      p2_t2_q <= {MU{1'b0}};
      carry_q <= 2'd0;
      eps_q   <= 2'd0;
      prime_q <= 2'd0;
      valid_q <= 1'b0;
      digit_q <= {MU{1'b0}};
    end else begin
      valid_q <= 1'b0;
      if (clear_i) begin
        p1_t1_q <= {MU{1'b0}};
        p1_t2_q <= {MU{1'b0}};
        p2_t2_q <= {MU{1'b0}};
        carry_q <= 2'd0;
        prime_q <= div_i ? 2'd2 : 2'd0;
      end else if (valid_i) begin
        p1_t1_q <= t1;
        p1_t2_q <= t2;
        p2_t2_q <= p1_t2_q;
        if (prime_q != 2'd0) begin
          prime_q <= prime_q - 2'd1;
          if (prime_q == 2'd1) begin
            carry_q <= eps_n[1:0];
            eps_q   <= eps_n[1:0];
          end
        end else begin
          carry_q <= col[MU+1:MU];
          digit_q <= col[MU-1:0];
          valid_q <= 1'b1;
        end
      end
    end
  end

  assign valid_o = valid_q;
  assign digit_o = digit_q;
  assign eps_o   = eps_q;

  wire unused_bits = ^{cw[CW-1:3*MU], eps_n[3:2]};
endmodule
