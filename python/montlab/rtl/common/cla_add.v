// cla_add: s = a + b + cin mod 2^W and its carry out, a two-level carry-look-ahead adder.
//
// A montlab building block of the carry-save library (NTT64's carry-resolution unit and its
//   large-number adder). Citation: the NTT paper Sec. IV-B ("a hierarchical carry-look-ahead
//   scheme for large-number addition"): carry-select segments under a parallel-prefix
//   (Kogge-Stone) carry network over the segments.
// Parameters: W operand bits (W >= 1); S segment bits (1 <= S). Derived: NS = ceil(W/S)
//   segments, operands zero-extended to NS*S bits; LEVELS = clog2(NS) prefix levels.
// Function: {cout_o, s_o} = a_i + b_i + cin_i (W + 1 bits, exact).
// Ranges: any a_i, b_i < 2^W, cin_i in {0, 1}. Parameters outside their ranges stop elaboration.
// Left out: subtraction (the caller complements), valid and reset (the registers hold data only;
//   the caller delays its valid by LATENCY), stalling.
// Schedule: LATENCY = 2, one new operation per clock. Edge 1 registers, per segment j, the two
//   candidate sums a_j + b_j and a_j + b_j + 1 with their carries g_j and h_j (h_j = 1 when the
//   segment propagates or generates), and cin_i. Between edges 1 and 2 the prefix network forms
//   the carry into every segment, c_(j+1) = g_j | h_j c_j (c_0 = cin), in LEVELS levels, and each
//   segment selects its candidate; edge 2 registers s_o and cout_o.
`default_nettype none

module cla_add #(
  parameter integer W = 64,
  parameter integer S = 16
) (
  input  wire         clk_i,
  input  wire [W-1:0] a_i,
  input  wire [W-1:0] b_i,
  input  wire         cin_i,
  output reg  [W-1:0] s_o,
  output reg          cout_o
);
  localparam integer NS = (W + S - 1) / S;
  localparam integer LEVELS = $clog2(NS);
  localparam integer PW = NS * S;

  genvar j, l;
  generate
    if (W < 1 || S < 1) begin : g_illegal
      cla_add_illegal_parameters u_stop ();
    end
  endgenerate

  wire [PW-1:0] a, b;
  assign a[W-1:0] = a_i;
  assign b[W-1:0] = b_i;
  generate
    if (PW > W) begin : g_pad
      assign a[PW-1:W] = {(PW - W){1'b0}};
      assign b[PW-1:W] = {(PW - W){1'b0}};
    end
  endgenerate

  // Edge 1: the candidate sums of every segment.
  reg [PW-1:0] sum0, sum1;
  reg [NS-1:0] g, h;
  reg          cin;
  generate
    for (j = 0; j < NS; j = j + 1) begin : g_seg
      wire [S:0] s0 = {1'b0, a[j*S +: S]} + {1'b0, b[j*S +: S]};
      wire [S:0] s1 = s0 + {{S{1'b0}}, 1'b1};
      always @(posedge clk_i) begin
        sum0[j*S +: S] <= s0[S-1:0];
        sum1[j*S +: S] <= s1[S-1:0];
        g[j] <= s0[S];
        h[j] <= s0[S] | s1[S];
      end
    end
  endgenerate
  always @(posedge clk_i) cin <= cin_i;

  // Between edges 1 and 2: Kogge-Stone prefix over (g, h); level l combines spans of 2^l.
  generate
    for (l = 0; l <= LEVELS; l = l + 1) begin : g_lv
      wire [NS-1:0] gp, hp;
      if (l == 0) begin : g_first
        assign gp = g;
        assign hp = h;
      end else begin : g_next
        for (j = 0; j < NS; j = j + 1) begin : g_cell
          if (j >= (1 << (l - 1))) begin : g_comb
            assign gp[j] = g_lv[l-1].gp[j] | (g_lv[l-1].hp[j] & g_lv[l-1].gp[j - (1 << (l - 1))]);
            assign hp[j] = g_lv[l-1].hp[j] & g_lv[l-1].hp[j - (1 << (l - 1))];
          end else begin : g_pass
            assign gp[j] = g_lv[l-1].gp[j];
            assign hp[j] = g_lv[l-1].hp[j];
          end
        end
      end
    end
  endgenerate

  // carry into segment j: c_j = G[j-1:0] | H[j-1:0] cin (c_0 = cin); c_NS is the carry out.
  wire [NS:0] c;
  assign c[0] = cin;
  generate
    for (j = 0; j < NS; j = j + 1) begin : g_carry
      assign c[j+1] = g_lv[LEVELS].gp[j] | (g_lv[LEVELS].hp[j] & cin);
    end
  endgenerate

  // Edge 2: select. Bits at or above W are zero in both candidates except for the carry, so
  // cout is the carry out of bit W - 1: out of the last segment when W = PW, else bit W of sum.
  wire [PW-1:0] sel;
  generate
    for (j = 0; j < NS; j = j + 1) begin : g_sel
      assign sel[j*S +: S] = c[j] ? sum1[j*S +: S] : sum0[j*S +: S];
    end
  endgenerate
  wire cout;
  generate
    if (PW == W) begin : g_cout_seg
      assign cout = c[NS];
    end else begin : g_cout_bit
      assign cout = sel[W];
      wire unused = &{1'b0, c[NS], sel[PW-1:W]};
    end
  endgenerate
  always @(posedge clk_i) begin
    s_o <= sel[W-1:0];
    cout_o <= cout;
  end
endmodule

`default_nettype wire
