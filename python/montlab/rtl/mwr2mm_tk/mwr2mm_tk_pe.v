// mwr2mm_tk_pe: one processing element of Tenca and Koc's MWR2MM pipeline (one column at a time).
//
// Citation: Huang, Gaj, El-Ghazawi, IEEE TC 60(7) 2011, Algorithm 2 and Fig. 1 (after Tenca and
//   Koc, CHES 1999); SPEC 5.2. Python model: montlab.ref.mwr2mm.
// Parameters: W word bits (W >= 2); E words of S, e = ceil((n+1)/W).
// Function: a column i is task A (word 0) then tasks B (words 1..E), one per cycle:
//   A: q_i = (x_i AND Y_0) XOR S_0;  (C, S^(0)) = x_i*Y^(0) + q_i*M^(0) + S^(0)
//   B: (C, S^(j)) = C + x_i*Y^(j) + q_i*M^(j) + S^(j), and S^(j-1) of round i is final:
//      (S^(j)_0, S^(j-1)_{W-1..1}) is registered in s_o (valid for one cycle, sv_o).
//   S^(j) on s_i is word j of round i-1 from the previous PE (registered there one cycle
//   earlier); for j = E it is 0 (S^(E) is discarded after each round), and Y^(E) = M^(E) = 0.
// Ranges: C <= 2 (SPEC 5.2; the paper's C <= 3 is loose), the carry register has 2 bits.
// Schedule: launch_i starts task A of a column in the same cycle (x_i and last_i come with it);
//   tasks B follow in the next E cycles. Y^(j), M^(j) arrive on ym_i in the cycle of task j and
//   leave on ym_o two cycles later, when the next column needs them.
// Interface: so_next_o/so_we_o show the word that s_o takes at the next edge (for the result
//   collector), fin_o marks task B of word E of the last column.
// Left out: the queue that p < P_max PEs would need, redundant S, the final subtraction.
`default_nettype none

module mwr2mm_tk_pe #(
  parameter integer W = 16,
  parameter integer E = 5
) (
  input  wire           clk_i,
  input  wire           rst_ni,
  input  wire           clr_i,
  input  wire           launch_i,
  input  wire           x_i,
  input  wire           last_i,
  input  wire [2*W-1:0] ym_i,      // {M^(j), Y^(j)}
  input  wire [W-1:0]   s_i,       // S^(j) of round i-1
  output reg  [2*W-1:0] ym_o,
  output reg  [W-1:0]   s_o,       // S^(j-1) of this PE's round, final
  output wire [W-1:0]   so_next_o,
  output wire           so_we_o,
  output wire           fin_o
);
  localparam integer JW = $clog2(E + 1);
  localparam [31:0] E32 = E;
  localparam [JW-1:0] JLAST = E32[JW-1:0];

  reg          act_q, x_q, q_q, last_q;
  reg [JW-1:0] j_q;
  reg [1:0]    c_q;
  reg [W-1:1]  raw_q;   // bits W-1..1 of the last word computed (the shift drops bit 0)
  reg [2*W-1:0] ym_d_q;

  wire [W-1:0] y_w = ym_i[W-1:0];
  wire [W-1:0] m_w = ym_i[2*W-1:W];

  wire          task_b = act_q;
  wire          busy   = launch_i | task_b;
  wire          at_top = task_b & (j_q == JLAST);
  wire [W-1:0]  s_in   = at_top ? {W{1'b0}} : s_i;
  wire          x      = launch_i ? x_i : x_q;
  wire          q      = launch_i ? ((x_i & y_w[0]) ^ s_in[0]) : q_q;
  wire [1:0]    c_in   = launch_i ? 2'b00 : c_q;
  wire [W+1:0]  t      = {{W{1'b0}}, c_in}
                       + (x ? {2'b00, y_w} : {(W+2){1'b0}})
                       + (q ? {2'b00, m_w} : {(W+2){1'b0}})
                       + {2'b00, s_in};

  assign so_next_o = {t[0], raw_q};
  assign so_we_o   = task_b & last_q;
  assign fin_o     = at_top & last_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      act_q  <= 1'b0;
      x_q    <= 1'b0;
      q_q    <= 1'b0;
      last_q <= 1'b0;
      j_q    <= {JW{1'b0}};
      c_q    <= 2'b00;
      raw_q  <= {(W-1){1'b0}};
      s_o    <= {W{1'b0}};
      ym_d_q <= {(2*W){1'b0}};
      ym_o   <= {(2*W){1'b0}};
    end else if (clr_i) begin
      act_q  <= 1'b0;
      x_q    <= 1'b0;
      q_q    <= 1'b0;
      last_q <= 1'b0;
      j_q    <= {JW{1'b0}};
      c_q    <= 2'b00;
      raw_q  <= {(W-1){1'b0}};
      s_o    <= {W{1'b0}};
      ym_d_q <= {(2*W){1'b0}};
      ym_o   <= {(2*W){1'b0}};
    end else begin
      ym_d_q <= ym_i;
      ym_o   <= ym_d_q;
      if (busy) begin
        c_q   <= t[W+1:W];
        raw_q <= t[W-1:1];
      end
      if (launch_i) begin
        act_q  <= 1'b1;
        j_q    <= {{(JW-1){1'b0}}, 1'b1};
        x_q    <= x_i;
        q_q    <= q;
        last_q <= last_i;
      end else if (task_b) begin
        s_o <= so_next_o;
        j_q <= j_q + 1'b1;
        if (at_top) act_q <= 1'b0;
      end
    end
  end
endmodule
