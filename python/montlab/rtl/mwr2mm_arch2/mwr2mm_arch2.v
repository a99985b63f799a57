// mwr2mm_arch2: Montgomery multiplier, Huang et al.'s Architecture 2 (e PEs, one word each).
//
// Citation: Huang, Gaj, El-Ghazawi, IEEE TC 60(7) 2011, Sec. 4, Figs. 8-11, Algorithms 3-5;
//   with K = 2 the radix-4 version of Sec. 5 (Algorithm 6; top module mwr4mm_arch2). SPEC 5.3-5.5.
//   Python models: montlab.ref.mwr2mm_arch2 (K = 1) and montlab.ref.mwr4mm (K = 2).
// Parameters: N operand bits (N >= W); W word bits (K = 1: W >= 2; K = 2: W >= 4, even);
//   K digit bits (1: radix 2, 2: radix 4). Derived: E = ceil((N+1)/W) words = PEs,
//   R = ceil(N/K) rounds. montlab.hw checks the parameters before building.
// Function: z_o = x*y*2^(-K*R) mod m, not fully reduced: 0 <= z_o < 2m.
// Ranges: m odd, 1 < m < 2^N; 0 <= x, y < m. z_o has N+1 bits.
// Left out: the final subtraction (z_o may be >= m), the domain conversions, redundant S, the
//   one-cycle-ahead precomputation of Fig. 13a, overlapping consecutive operations.
// Schedule: start_i is taken at a clock edge while busy_o is low; X, Y and M are loaded in
//   parallel at that edge, which also clears every PE. Call the cycle after it cycle 0.
//   PE j runs task (i, j) of round i in cycle i + j (the ASAP schedule of Fig. 8), so the last
//   task, (R-1, E-1), ends with cycle R+E-2: done_o is high for one cycle after
//   R + E - 1 clock edges (n + e - 1 for K = 1, ceil(n/2) + e - 1 for K = 2), busy_o falls at
//   the same edge, and z_o holds the result until the next start is taken (start_i may be high
//   in the done_o cycle: back-to-back operations). rst_ni (asynchronous, active low) abandons
//   an operation at any time.
// Structure: PE j owns word j; x^(i), q^(i), the carry C^(j) and the valid/last token travel
//   from PE j-1 to PE j through registers; the select bits travel back from PE j+1 (Fig. 10).
//   After its last round each PE holds its selected word, so the result is
//   (C^(e) * 2^(W*E) + U^(E-1..0)) / 2^K, wired from the PEs.
`default_nettype none

module mwr2mm_arch2 #(
  parameter integer N = 64,
  parameter integer W = 16,
  parameter integer K = 1
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire         start_i,
  input  wire [N-1:0] x_i,
  input  wire [N-1:0] y_i,
  input  wire [N-1:0] m_i,
  output wire         busy_o,
  output wire         done_o,
  output wire [N:0]   z_o
);
  localparam integer E  = (N + W) / W;        // ceil((N+1)/W)
  localparam integer R  = (N + K - 1) / K;    // rounds
  localparam integer XW = R * K;
  localparam integer CB = K + 1;              // carry bits
  localparam integer RW = $clog2(R + 1);
  localparam [31:0] RLAST32 = R - 1;
  localparam [RW-1:0] RLAST = RLAST32[RW-1:0];

  reg          busy_q, done_q, run_q;
  reg [RW-1:0] rnd_q;
  reg [XW-1:0] x_q;
  reg [W*E-1:0] y_q, m_q;

  wire go = start_i & ~busy_q;

  // The PE chain (index j: into PE j; index E: out of PE E-1).
  wire          pe_valid [0:E];
  wire          pe_last  [0:E];
  wire [K-1:0]  pe_x     [0:E];
  wire [K-1:0]  pe_q     [0:E];
  wire [CB-1:0] pe_c     [0:E];
  wire [W-1:0]  pe_u     [0:E-1];
  wire [K-1:0]  pe_lsb   [0:E];

  assign pe_valid[0] = run_q;
  assign pe_last[0]  = (rnd_q == RLAST);
  assign pe_x[0]     = x_q[K-1:0];
  assign pe_q[0]     = {K{1'b0}};
  assign pe_c[0]     = {CB{1'b0}};
  assign pe_lsb[E]   = {K{1'b0}};

  // PE E-1 runs the last task of the last round in this cycle.
  wire fin = pe_valid[E-1] & pe_last[E-1];

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      done_q <= 1'b0;
      run_q  <= 1'b0;
      rnd_q  <= {RW{1'b0}};
      x_q    <= {XW{1'b0}};
      y_q    <= {(W*E){1'b0}};
      m_q    <= {(W*E){1'b0}};
    end else begin
      done_q <= 1'b0;
      if (go) begin
        busy_q <= 1'b1;
        run_q  <= 1'b1;
        rnd_q  <= {RW{1'b0}};
        x_q    <= {{(XW-N){1'b0}}, x_i};
        y_q    <= {{(W*E-N){1'b0}}, y_i};
        m_q    <= {{(W*E-N){1'b0}}, m_i};
      end else begin
        if (run_q) begin
          x_q   <= x_q >> K;
          rnd_q <= rnd_q + 1'b1;
          if (rnd_q == RLAST) run_q <= 1'b0;
        end
        if (fin) begin
          busy_q <= 1'b0;
          done_q <= 1'b1;
        end
      end
    end
  end

  genvar j;
  generate
    for (j = 0; j < E; j = j + 1) begin : g_pe
      mwr2mm_arch2_pe #(
        .W   (W),
        .K   (K),
        .KIND((j == 0) ? 0 : ((j == E - 1) ? 2 : 1)),
        .CB  (CB)
      ) u_pe (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .clr_i  (go),
        .valid_i(pe_valid[j]),
        .last_i (pe_last[j]),
        .x_i    (pe_x[j]),
        .q_i    (pe_q[j]),
        .c_i    (pe_c[j]),
        .y_i    (y_q[j*W +: W]),
        .m_i    (m_q[j*W +: W]),
        .sel_i  (pe_lsb[j+1]),
        .valid_o(pe_valid[j+1]),
        .last_o (pe_last[j+1]),
        .x_o    (pe_x[j+1]),
        .q_o    (pe_q[j+1]),
        .c_o    (pe_c[j+1]),
        .u_o    (pe_u[j]),
        .lsb_o  (pe_lsb[j])
      );
    end
  endgenerate

  // The accumulated value T = C^(e)*2^(W*E) + U, shifted right by K.
  wire [W*E+K-1:0] acc;
  assign acc[W*E +: K] = pe_c[E][K-1:0];
  generate
    for (j = 0; j < E; j = j + 1) begin : g_acc
      assign acc[j*W +: W] = pe_u[j];
    end
  endgenerate
  assign z_o    = acc[N+K:K];
  assign busy_o = busy_q;
  assign done_o = done_q;

  // Bits that are zero by the contract, and the chain's tail.
  wire unused_ok = ^{acc, pe_c[E], pe_x[E], pe_q[E], pe_valid[E], pe_last[E], pe_lsb[0]};
endmodule
