// mwr2mm_arch1_pe: one processing element of Huang et al.'s Architecture 1 (one round at a time).
//
// Citation: Huang, Gaj, El-Ghazawi, IEEE TC 60(7) 2011, Sec. 3, Algorithms 3-4 (Tasks D, E),
//   Algorithm 5 (Task F for the last word), Figs. 4-5; SPEC 5.3. Python model:
//   montlab.ref.mwr2mm_arch1 (with montlab.ref._twoversion).
// Parameters: W word bits (W >= 2); E words, e = ceil((n+1)/W) >= 2.
// Function: round i runs word by word, task (i, j) in consecutive cycles j = 0..E-1:
//   (C^(j+1), U^(j))_b = C^(j) + x_i*Y^(j) + q_i*M^(j) + (b, U^(j)_{W-1..1} of round i-1)
//   for b = 1 and b = 0 (the LSB of U^(j+1) of round i-1 is not known yet). Task D (j = 0) has
//   C^(0) = 0 and computes q_i = (x_i AND Y_0) XOR U^(0)_1 of round i-1; Task F (j = E-1) has one
//   branch whose b is C^(e) of round i-1. The registered branches are selected, after the clock
//   edge, by the LSB of U^(j+1) of round i-1, which the previous PE (or the queue) registers at
//   that same edge (psel_i).
// Ranges: every branch has C <= 2, the selected C^(e) <= 1 (SPEC 5.2); 2-bit carries.
// Schedule: start_i starts task D in the same cycle (x_i, last_i with it); tasks 1..E-1 follow.
//   pu_i/pc_i carry the selected word j (and its carry) of round i-1 in the cycle of task j.
//   u_o/c_o show the selected branch of a task during the cycle after it; start_o passes the
//   round token to the next PE one cycle after start_i (not after the last round).
// Interface: ov_o marks a u_o that is word j < E-1 of the last round (for the collector);
//   fin_o marks task F of the last round.
// Left out: the M and Y shift registers of Fig. 6 are the ym_i/ym_o pipeline here.
`default_nettype none

module mwr2mm_arch1_pe #(
  parameter integer W = 16,
  parameter integer E = 5
) (
  input  wire           clk_i,
  input  wire           rst_ni,
  input  wire           clr_i,
  input  wire           start_i,
  input  wire           x_i,
  input  wire           last_i,
  input  wire [2*W-1:0] ym_i,     // {M^(j), Y^(j)}
  input  wire [W-1:0]   pu_i,     // selected U^(j) of round i-1
  input  wire [1:0]     pc_i,     // its carry; C^(e) of round i-1 when j = E-1
  input  wire           psel_i,   // LSB of U^(j+1) of round i-1, for the registered branches
  output reg            start_o,
  output reg  [2*W-1:0] ym_o,
  output wire [W-1:0]   u_o,
  output wire [1:0]     c_o,
  output wire           lsb_o,
  output reg            ov_o,
  output wire           fin_o
);
  localparam integer JW = $clog2(E);
  localparam [31:0] EL32 = E - 1;
  localparam [JW-1:0] JLAST = EL32[JW-1:0];
  localparam integer TW = W + 2;

  reg          act_q, x_q, q_q, last_q;
  reg [JW-1:0] j_q;
  reg [TW-1:0] v1_q, v0_q;   // {carry, word} for b = 1 and b = 0

  wire [TW-1:0] cur = psel_i ? v1_q : v0_q;
  assign u_o   = cur[W-1:0];
  assign c_o   = cur[TW-1:W];
  assign lsb_o = v0_q[0];

  wire [W-1:0]  y_w    = ym_i[W-1:0];
  wire [W-1:0]  m_w    = ym_i[2*W-1:W];
  wire          active = start_i | act_q;
  wire [JW-1:0] j_cur  = start_i ? {JW{1'b0}} : j_q;
  wire          is_f   = (j_cur == JLAST);
  wire          last   = start_i ? last_i : last_q;
  wire          x      = start_i ? x_i : x_q;
  wire          q      = start_i ? ((x_i & y_w[0]) ^ pu_i[1]) : q_q;
  wire [1:0]    c_in   = start_i ? 2'b00 : c_o;
  wire          msb0   = is_f & pc_i[0];
  wire [TW-1:0] base   = {{W{1'b0}}, c_in}
                       + (x ? {2'b00, y_w} : {TW{1'b0}})
                       + (q ? {2'b00, m_w} : {TW{1'b0}})
                       + {2'b00, msb0, pu_i[W-1:1]};
  wire [TW-1:0] br1    = base + {3'b001, {(W-1){1'b0}}};

  assign fin_o = active & is_f & last;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      act_q   <= 1'b0;
      x_q     <= 1'b0;
      q_q     <= 1'b0;
      last_q  <= 1'b0;
      j_q     <= {JW{1'b0}};
      v1_q    <= {TW{1'b0}};
      v0_q    <= {TW{1'b0}};
      start_o <= 1'b0;
      ym_o    <= {(2*W){1'b0}};
      ov_o    <= 1'b0;
    end else if (clr_i) begin
      act_q   <= 1'b0;
      x_q     <= 1'b0;
      q_q     <= 1'b0;
      last_q  <= 1'b0;
      j_q     <= {JW{1'b0}};
      v1_q    <= {TW{1'b0}};
      v0_q    <= {TW{1'b0}};
      start_o <= 1'b0;
      ym_o    <= {(2*W){1'b0}};
      ov_o    <= 1'b0;
    end else begin
      ym_o    <= ym_i;
      start_o <= start_i & ~last_i;
      ov_o    <= active & last & ~is_f;
      if (active) begin
        v0_q   <= base;
        v1_q   <= is_f ? base : br1;
        j_q    <= j_cur + 1'b1;
        act_q  <= ~is_f;
        x_q    <= x;
        q_q    <= q;
        last_q <= last;
      end
    end
  end

  wire unused_ok = ^{pc_i[1], pu_i[0]};  // pu_i[0] is shifted out
endmodule
