// mwr2mm_arch2_pe: one processing element of Huang et al.'s Architecture 2, radix 2^K.
//
// Citation: Huang, Gaj, El-Ghazawi, IEEE TC 60(7) 2011, Sec. 4, Algorithms 3-5 (Tasks D, E, F),
//   Fig. 10 (the PE, its registers and the multiplexers after them); Sec. 5 for K = 2 (four
//   branches, q^(i) from eq. (8)). SPEC 5.3-5.4. Python model: montlab.ref.mwr2mm_arch2 (K = 1),
//   montlab.ref.mwr4mm (K = 2).
// Parameters: W word bits (W >= 2 for K = 1, W >= 4 and even for K = 2); K digit bits (1 or 2);
//   KIND 0 = Task D (word 0, computes q^(i)), 1 = Task E, 2 = Task F (word e-1, one branch);
//   CB carry bits (K + 1: C <= 2 for K = 1, C <= 6 for K = 2).
// Function: PE j keeps the unshifted word U^(j). In round i it forms, for every value b of the
//   K bits that the shift brings in from U^(j+1) (not known yet), the branch
//     (C^(j+1), U^(j))_b = C^(j) + x^(i)*Y^(j) + q^(i)*M^(j) + (b, U^(j)_{W-1..K}).
//   The branches differ by b*2^(W-K) only, so their K low bits agree. After the clock edge the
//   K low bits of PE j+1's register (U^(j+1) of round i-1) select the branch (sel_i). Task F has
//   one branch: its b is its own previous C^(e). Task D has C^(j) = 0 and computes
//   q^(i) = -(S_{K-1..0} + x^(i)*Y_{K-1..0}) * M_{K-1..0} mod 2^K (M^-1 = M mod 4), where
//   S_{K-1..0} = U^(0)_{2K-1..K}; for K = 1 this is q_i = (x_i AND Y_0) XOR S_0 (Algorithm 3),
//   for K = 2 it equals the 7-bit table of Algorithm 6.
// Ranges: y_i, m_i < 2^W; c_i <= 2 (K = 1) or <= 6 (K = 2); every branch keeps that bound.
// Schedule: task (i, j) runs in cycle i + j when valid_i is high; its branches are registered at
//   the end of that cycle and u_o/c_o show the selected branch during the next cycle. While
//   valid_i is low the PE folds the selected branch into every register, so its word stays
//   stable once PE j+1 moves on (that is how the result is held after the last round).
// Interface: valid_i/last_i/x_i/q_i/c_i come registered from PE j-1 (from the control for j = 0)
//   and leave registered on the *_o ports one cycle later; clr_i clears all state synchronously.
// Left out: the precomputation of x^(i)*Y^(j) + q^(i)*M^(j) one cycle ahead (Fig. 13a),
//   redundant (carry-save) S.
`default_nettype none

module mwr2mm_arch2_pe #(
  parameter integer W    = 16,
  parameter integer K    = 1,
  parameter integer KIND = 1,
  parameter integer CB   = K + 1
) (
  input  wire          clk_i,
  input  wire          rst_ni,
  input  wire          clr_i,
  input  wire          valid_i,
  input  wire          last_i,
  input  wire [K-1:0]  x_i,
  input  wire [K-1:0]  q_i,
  input  wire [CB-1:0] c_i,
  input  wire [W-1:0]  y_i,
  input  wire [W-1:0]  m_i,
  input  wire [K-1:0]  sel_i,
  output reg           valid_o,
  output reg           last_o,
  output reg  [K-1:0]  x_o,
  output reg  [K-1:0]  q_o,
  output wire [CB-1:0] c_o,
  output wire [W-1:0]  u_o,
  output wire [K-1:0]  lsb_o
);
  localparam integer NV = (KIND == 2) ? 1 : (1 << K);  // branches
  localparam integer TW = W + CB;                       // one branch: {carry, word}

  // The registered branches and the multiplexer after them.
  wire [TW-1:0] ver [0:NV-1];
  wire [TW-1:0] cur;
  generate
    if (NV == 1) begin : g_one
      assign cur = ver[0];
    end else begin : g_sel
      assign cur = ver[sel_i];
    end
  endgenerate
  assign u_o   = cur[W-1:0];
  assign c_o   = cur[TW-1:W];
  assign lsb_o = ver[0][K-1:0];

  // q^(i): computed by Task D from the previous word 0, passed along by E and F.
  wire [2*K-1:0] xy_lo = {{K{1'b0}}, x_i} * {{K{1'b0}}, y_i[K-1:0]};
  wire [K-1:0]   a_lo  = u_o[2*K-1:K] + xy_lo[K-1:0];
  wire [K-1:0]   na_lo = ~a_lo + {{(K-1){1'b0}}, 1'b1};
  wire [2*K-1:0] qm_lo = {{K{1'b0}}, na_lo} * {{K{1'b0}}, m_i[K-1:0]};
  wire [K-1:0]   q     = (KIND == 0) ? qm_lo[K-1:0] : q_i;
  wire [CB-1:0]  c_in  = (KIND == 0) ? {CB{1'b0}} : c_i;

  // x^(i)*Y^(j) and q^(i)*M^(j) as shifted copies (no multipliers).
  wire [TW-1:0] y_ext = {{CB{1'b0}}, y_i};
  wire [TW-1:0] m_ext = {{CB{1'b0}}, m_i};
  wire [TW-1:0] xy = (x_i[0] ? y_ext : {TW{1'b0}})
                   + ((K == 2 && x_i[K-1]) ? {y_ext[TW-2:0], 1'b0} : {TW{1'b0}});
  wire [TW-1:0] qm = (q[0] ? m_ext : {TW{1'b0}})
                   + ((K == 2 && q[K-1]) ? {m_ext[TW-2:0], 1'b0} : {TW{1'b0}});
  // Branch 0: the shifted word with its K top bits 0; branch b adds b*2^(W-K).
  wire [TW-1:0] base = {{(TW-CB){1'b0}}, c_in} + xy + qm + {{(CB+K){1'b0}}, u_o[W-1:K]};

  generate
    genvar b;
    for (b = 0; b < NV; b = b + 1) begin : g_ver
      wire [TW-1:0] top_bits;
      if (KIND == 2) begin : g_f
        // Task F: the bits shifted in are the previous C^(e), held in this PE's own carry.
        assign top_bits = {{(TW-K){1'b0}}, c_o[K-1:0]} << (W - K);
      end else begin : g_de
        assign top_bits = b << (W - K);
      end
      reg [TW-1:0] v_q;
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          v_q <= {TW{1'b0}};
        end else if (clr_i) begin
          v_q <= {TW{1'b0}};
        end else if (valid_i) begin
          v_q <= base + top_bits;
        end else begin
          v_q <= cur;
        end
      end
      assign ver[b] = v_q;
    end
  endgenerate

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_o <= 1'b0;
      last_o  <= 1'b0;
      x_o     <= {K{1'b0}};
      q_o     <= {K{1'b0}};
    end else if (clr_i) begin
      valid_o <= 1'b0;
      last_o  <= 1'b0;
      x_o     <= {K{1'b0}};
      q_o     <= {K{1'b0}};
    end else begin
      valid_o <= valid_i;
      last_o  <= valid_i & last_i;
      if (valid_i) begin
        x_o <= x_i;
        q_o <= q;
      end
    end
  end

  // Inputs a task kind does not read.
  wire unused_ok = ^{q_i, c_i, sel_i, y_i[W-1:K], m_i[W-1:K], xy_lo[2*K-1:K], qm_lo[2*K-1:K]};
endmodule
