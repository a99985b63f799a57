// mwr2mm_arch1: Montgomery multiplier, Huang et al.'s Architecture 1 (p two-version PEs, a queue).
//
// Citation: Huang, Gaj, El-Ghazawi, IEEE TC 60(7) 2011, Sec. 3, Algorithms 3-5, Figs. 4-7,
//   eqs. (6)-(7); SPEC 5.3, 5.5, 5.6 erratum 1. Python models: montlab.ref.mwr2mm_arch1,
//   montlab.cycles.mwr2mm_arch1.
// Parameters: N operand bits (N >= W); W word bits (W >= 2); P PEs (1 <= P <= N).
//   Derived: E = ceil((N+1)/W) words; D = max(E - P, 0) queue stages.
// Function: z_o = x*y*2^-N mod m, 0 <= z_o < 2m (no final subtraction).
// Ranges: m odd, 1 < m < 2^N; 0 <= x, y < m. z_o has N+1 bits.
// Left out: the final subtraction, redundant S, the domain conversions, overlapping
//   consecutive operations.
// Schedule: start_i is taken at a clock edge while busy_o is low; X, Y, M are loaded in parallel
//   and every PE is cleared. Call the next cycle cycle 0. Round i runs on PE i mod P, task (i, j)
//   in cycle s_i + j with s_i = floor(i/P)*max(E, P) + (i mod P) (the ASAP schedule of Fig. 4).
//   So the last task ends with cycle N+E-2 when P >= E, else N + k(E-P) + E - 2 with
//   k = ceil(N/P) - 1 (eq. (6) corrected): done_o is high for one cycle after that many clock
//   edges plus one, busy_o falls at that edge, and z_o holds the result until the next start is
//   taken (start_i may be high in the done_o cycle). rst_ni (asynchronous, active low) abandons
//   an operation.
// Structure: PE k hands the selected words of its round, one per cycle, to PE k+1 (Fig. 6); PE
//   P-1 hands them back to PE 0. When E > P, PE 0 is still busy then: the words wait in the
//   queue, here a D-stage delay line (the schedule is fixed, so the FIFO of Fig. 6 always holds
//   exactly D = E - P words in steady state: eq. (7)). Y^(j), M^(j) travel with the words (a
//   loader shifts them in for round 0). The round token, x_i and the round count come from the
//   control; the words of the last round are collected as they are selected.
`default_nettype none

module mwr2mm_arch1 #(
  parameter integer N = 64,
  parameter integer W = 16,
  parameter integer P = 5
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
  localparam integer E    = (N + W) / W;        // ceil((N+1)/W)
  localparam integer D    = (E > P) ? E - P : 0; // queue stages
  localparam integer CW   = $clog2(N + 1);
  localparam integer LAST = (N - 1) % P;         // the PE that runs the last round
  localparam integer SW   = 1 + W + 2 + 2 * W;   // one queue entry: {start, u, c, ym}
  localparam [31:0] RLAST32 = N - 1;
  localparam [CW-1:0] RLAST = RLAST32[CW-1:0];

  reg                 busy_q, done_q, kick_q;
  reg [CW-1:0]        rnd_q;
  reg [N-1:0]         x_q;
  reg [W*E-1:0]       y_ld_q, m_ld_q;
  reg [W*(E-1)-1:0]   coll_q;   // words 0..E-2 of the last round

  wire go = start_i & ~busy_q;
  wire [W*(E-1)-1:0] coll_next;

  // Into PE k (index k) and out of PE k.
  wire           pe_start_in [0:P-1];
  wire [2*W-1:0] pe_ym_in    [0:P-1];
  wire [W-1:0]   pe_pu       [0:P-1];
  wire [1:0]     pe_pc       [0:P-1];
  wire           pe_psel     [0:P-1];
  wire           pe_start    [0:P-1];
  wire [2*W-1:0] pe_ym       [0:P-1];
  wire [W-1:0]   pe_u        [0:P-1];
  wire [1:0]     pe_c        [0:P-1];
  wire           pe_lsb      [0:P-1];
  wire           pe_ov       [0:P-1];
  wire           pe_fin      [0:P-1];

  // The hand-off from PE P-1 back to PE 0: direct, or through the D-stage queue.
  wire [SW-1:0] ring_in = {pe_start[P-1], pe_u[P-1], pe_c[P-1], pe_ym[P-1]};
  wire [SW-1:0] ring_out;
  wire          ring_sel;
  genvar k;
  generate
    if (D == 0) begin : g_direct
      assign ring_out = ring_in;
      assign ring_sel = pe_lsb[P-1];
    end else begin : g_queue
      // Registers only: an array mixing the combinational input with registers would look
      // like a combinational loop to the simulator.
      wire [SW-1:0] stage_q [0:D-1];
      for (k = 0; k < D; k = k + 1) begin : g_stage
        wire [SW-1:0] d = (k == 0) ? ring_in : stage_q[(k == 0) ? 0 : k - 1];
        reg  [SW-1:0] q_q;
        always @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) begin
            q_q <= {SW{1'b0}};
          end else if (go) begin
            q_q <= {SW{1'b0}};
          end else begin
            q_q <= d;
          end
        end
        assign stage_q[k] = q_q;
      end
      assign ring_out = stage_q[D-1];
      assign ring_sel = stage_q[D-1][2*W+2];  // the LSB of the queued word
    end
  endgenerate

  assign pe_start_in[0] = kick_q | ring_out[SW-1];
  assign pe_pu[0]       = ring_out[SW-2 -: W];
  assign pe_pc[0]       = ring_out[2*W+1 -: 2];
  assign pe_psel[0]     = ring_sel;
  assign pe_ym_in[0]    = {m_ld_q[W-1:0], y_ld_q[W-1:0]} | ring_out[2*W-1:0];

  // One round starts per cycle at most: x_i and the round count follow the starts.
  reg any_start;
  integer a;
  always @* begin
    any_start = 1'b0;
    for (a = 0; a < P; a = a + 1) any_start = any_start | pe_start_in[a];
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      done_q <= 1'b0;
      kick_q <= 1'b0;
      rnd_q  <= {CW{1'b0}};
      x_q    <= {N{1'b0}};
      y_ld_q <= {(W*E){1'b0}};
      m_ld_q <= {(W*E){1'b0}};
      coll_q <= {(W*(E-1)){1'b0}};
    end else begin
      done_q <= 1'b0;
      kick_q <= go;
      if (go) begin
        busy_q <= 1'b1;
        rnd_q  <= {CW{1'b0}};
        x_q    <= x_i;
        y_ld_q <= {{(W*E-N){1'b0}}, y_i};
        m_ld_q <= {{(W*E-N){1'b0}}, m_i};
        coll_q <= {(W*(E-1)){1'b0}};
      end else begin
        y_ld_q <= y_ld_q >> W;
        m_ld_q <= m_ld_q >> W;
        if (any_start) begin
          x_q   <= x_q >> 1;
          rnd_q <= rnd_q + 1'b1;
        end
        if (pe_ov[LAST]) coll_q <= coll_next;
        if (pe_fin[LAST]) begin
          busy_q <= 1'b0;
          done_q <= 1'b1;
        end
      end
    end
  end

  generate
    for (k = 0; k < P; k = k + 1) begin : g_pe
      if (k > 0) begin : g_link
        assign pe_start_in[k] = pe_start[k-1];
        assign pe_ym_in[k]    = pe_ym[k-1];
        assign pe_pu[k]       = pe_u[k-1];
        assign pe_pc[k]       = pe_c[k-1];
        assign pe_psel[k]     = pe_lsb[k-1];
      end
      mwr2mm_arch1_pe #(
        .W(W),
        .E(E)
      ) u_pe (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .clr_i  (go),
        .start_i(pe_start_in[k]),
        .x_i    (x_q[0]),
        .last_i (rnd_q == RLAST),
        .ym_i   (pe_ym_in[k]),
        .pu_i   (pe_pu[k]),
        .pc_i   (pe_pc[k]),
        .psel_i (pe_psel[k]),
        .start_o(pe_start[k]),
        .ym_o   (pe_ym[k]),
        .u_o    (pe_u[k]),
        .c_o    (pe_c[k]),
        .lsb_o  (pe_lsb[k]),
        .ov_o   (pe_ov[k]),
        .fin_o  (pe_fin[k])
      );
    end
  endgenerate

  // The collector shifts in words 0..E-2 of the last round as they are selected.
  generate
    if (E > 2) begin : g_coll
      assign coll_next = {pe_u[LAST], coll_q[W*(E-1)-1:W]};
    end else begin : g_coll1
      assign coll_next = pe_u[LAST];
    end
  endgenerate

  // T = C^(e)*2^(W*E) + U of the last round; the product is T/2.
  wire [W*E:0] acc = {pe_c[LAST][0], pe_u[LAST], coll_q};
  assign z_o    = acc[N+1:1];
  assign busy_o = busy_q;
  assign done_o = done_q;

  wire unused_ok = ^{acc, pe_c[LAST][1], pe_lsb[P-1]};
endmodule
