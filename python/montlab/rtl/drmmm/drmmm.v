// drmmm: different-radix Montgomery multiplier, Algorithm 3 with a t-stage quotient pipeline.
//
// Citation: Zhang et al., DRMMM paper, Algorithm 3 (carry-save triplet), Fig. 5 and Fig. 10
//   (q pipeline, iM' encode layer), Fig. 6, eq. (31) / Fig. 8(a) (6:3 counters), eq. (32) and
//   Sec. 4.3.1 (carry bits); as corrected in SPEC 3.3 and docs/errata.md (DRMMM 1-3, 7).
//   Model: montlab.ref.drmmm (alg = 3).
// Parameters: N modulus bits; K digit bits (r = 2^K, K >= 2); T quotient-pipeline stages (T >= 1);
//   G guard bits of each word above KT+N+K (G = 0, the paper's width with f = 0, also works:
//   erratum 7 bites Algorithm 2's single register, not these words); F final stages;
//   SERIAL final stage segment-serial (1) or pipelined (0); PP partial products of q^*M:
//   0 = K AND rows of M, 1 = a loadable table of multiples j*M, j < 2^WIN, one row per WIN-bit
//   window of q^ (the paper bakes M into LUT INIT values; here M stays a run-time input);
//   CELL compressor cells (0: 3:2 rows, 1: 6:3 counters eq. (31), 2: 6:3 counters Fig. 8(a)).
//   Erratum variants, kept to show the errata failing: PRINTED_LOOP = 1 runs d+t+1 iterations
//   (returns A*B*r^-(d+1)); Q_CARRIES = 0 feeds stage 1 without C_l, C_m.
// Function: z_o = x*y*2^(-K*D) mod m, fully reduced; D = ceil(N/K) digits.
// Ranges: m odd, 1 < m < 2^N; 0 <= x, y < m; mp_i = M' = -m^-1 mod 2^(K*T); PP = 1: table
//   entry j = j*m, written through tm_we_i/tm_addr_i/tm_data_i before start_i (one per cycle).
// Word size: the state is three words of KT+N+G bits after the shift (KT+N+K+G before it) and
//   the carries C_l, C_m of weight 1; a_i*B is K AND rows of B placed at bit KT+b.
// Left out: Booth encoding, the merged q/qM LUT layer, the LUT form of a_i*B for radix 4.
//   The q pipeline's stage boundaries are csa_tree's even spread, not Fig. 10's hand split.
// Schedule: start_i is taken at a clock edge while busy_o is low; x, y, m, M' are loaded and
//   the state is cleared at that edge. Call the cycle after it cycle 0. Iteration i
//   (i = 0 .. D+T-1) runs in cycle i: the q pipeline takes the state's low KT bits (and C_l,
//   C_m) and delivers q^_i at the end of cycle i+T-2 (T >= 2; T = 1: in cycle i), the tree
//   compresses Temp = a_i*B << KT (+C_l), q^_(i-T+1)*M, Z0, Z1, Z2 and C_m into three words,
//   and the shifted words and new carries are registered at the edge ending cycle i. In cycle
//   D+T-1 the shifted words and carries of the last iteration also feed the final stage (a 3:2
//   row, then add_sub_sel: add, subtract m, select), which takes them at the edge ending that
//   cycle and finishes over F edges: done_o is high for one cycle after D+T+F edges,
//   busy_o falls with it, z_o holds until the next start (start_i may be high in the done_o
//   cycle). rst_ni (asynchronous, active low) abandons an operation at any time.
`default_nettype none

module drmmm #(
  parameter integer N = 64,
  parameter integer K = 4,
  parameter integer T = 2,
  parameter integer G = 1,
  parameter integer F = 1,
  parameter integer SERIAL = 0,
  parameter integer PP = 0,
  parameter integer WIN = 4,
  parameter integer CELL = 1,
  parameter integer PRINTED_LOOP = 0,
  parameter integer Q_CARRIES = 1
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             start_i,
  input  wire [N-1:0]     x_i,
  input  wire [N-1:0]     y_i,
  input  wire [N-1:0]     m_i,
  input  wire [K*T-1:0]   mp_i,
  input  wire             tm_we_i,
  input  wire [WIN-1:0]   tm_addr_i,
  input  wire [N+WIN-1:0] tm_data_i,
  output wire             busy_o,
  output wire             done_o,
  output wire [N-1:0]     z_o
);
  localparam integer D     = (N + K - 1) / K;
  localparam integer KT    = K * T;
  localparam integer W     = KT + N + K + G;           // tree width, before the shift
  localparam integer ZW    = W - K;                    // state words, after the shift
  localparam integer ITERS = D + T + PRINTED_LOOP;
  localparam integer NQ    = (PP != 0) ? K / WIN : K;  // rows of q^*M
  localparam integer NIN   = K + NQ + 4;               // + Z0, Z1, Z2, C_m
  localparam integer CW    = $clog2(ITERS + 1);
  localparam [31:0] LAST32 = ITERS - 1;
  localparam [CW-1:0] LAST = LAST32[CW-1:0];
  localparam integer TN    = 1 << WIN;

  reg            busy_q, run_q;
  reg [CW-1:0]   cnt_q;
  reg [D*K-1:0]  xs_q;
  reg [N-1:0]    y_q, m_q;
  reg [KT-1:0]   mp_q, mp3_q;                 // M' and 3M' mod r^T
  reg [ZW-1:0]   z0_q, z1_q, z2_q;
  reg            cl_q, cm_q;

  wire fin_done;
  wire go = start_i & ~busy_o;
  wire last_it = run_q & (cnt_q == LAST);   // the last iteration runs in this cycle

  // --- the q pipeline (Fig. 5, Fig. 10), T-1 stages ------------------------------------------
  // q^_i = top digit of ((Z0+Z1+Z2+C_l+C_m) mod r^T) * M' mod r^T, from the state in cycle i.
  // Encode layer (Sec. 4.3.2, "iM' encode"): column j of the three words holds c_j ones, and
  // row j is (c_j*M' mod r^T) << j; row KT is (C_l+C_m)*M' (left out when Q_CARRIES = 0).
  // The KT+1 rows go through a csa_tree to two words and one KT-bit adder. T = 1: all
  // combinational, used in the same cycle. T = 2: one stage, registered in qp_q. T >= 3: the
  // tree spread over T-2 stages (csa_tree STAGES), the adder in stage T-1, registered in qp_q.
  localparam integer QN  = KT + 1;                     // rows of the q tree
  localparam integer QTS = (T > 2) ? T - 2 : 0;        // tree stages
  localparam [31:0]  QV32 = QTS;                       // first cycle with a valid adder output
  wire [KT-1:0] mp2 = {mp_q[KT-2:0], 1'b0};
  wire [KT*QN-1:0] q_rows;
  genvar j;
  generate
    for (j = 0; j < QN; j = j + 1) begin : g_qenc
      wire [1:0] c;
      if (j < KT) begin : g_col
        assign c = {1'b0, z0_q[j]} + {1'b0, z1_q[j]} + {1'b0, z2_q[j]};
      end else if (Q_CARRIES != 0) begin : g_car
        assign c = {1'b0, cl_q} + {1'b0, cm_q};
      end else begin : g_nocar
        assign c = 2'b00;
      end
      wire [KT-1:0] enc = (c == 2'd0) ? {KT{1'b0}} : (c == 2'd1) ? mp_q
                        : (c == 2'd2) ? mp2 : mp3_q;
      assign q_rows[j*KT +: KT] = (j < KT) ? (enc << j) : enc;
    end
  endgenerate
  wire [2*KT-1:0] q_cs;
  csa_tree #(.W(KT), .NIN(QN), .NOUT(2), .CELL(CELL), .EAC(0), .REG_EVERY(0), .STAGES(QTS))
  u_qtree (
    .clk_i(clk_i),
    .in_i (q_rows),
    .out_o(q_cs)
  );
  wire [KT-1:0] q_sum = q_cs[0 +: KT] + q_cs[KT +: KT];   // mod r^T
  wire [K-1:0]  q_new = q_sum[KT-1 -: K];                 // q^ of the iteration QTS cycles ago
  wire [K-1:0]  q_used;                                   // q^_(i-T+1)

  generate
    if (T == 1) begin : g_q0
      assign q_used = q_new;
    end else begin : g_qp
      // The first QTS adder outputs of a run come from before start_i: q^_j = 0 for j < 0.
      reg [K-1:0] qp_q;
      wire q_valid;
      if (QTS == 0) begin : g_v1
        assign q_valid = 1'b1;
      end else begin : g_vcnt
        assign q_valid = (cnt_q >= QV32[CW-1:0]);
      end
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) qp_q <= {K{1'b0}};
        else if (go) qp_q <= {K{1'b0}};
        else if (run_q) qp_q <= q_valid ? q_new : {K{1'b0}};
      end
      assign q_used = qp_q;
    end
  endgenerate

  // --- partial products --------------------------------------------------------------------
  wire [K-1:0] a_i = xs_q[K-1:0];
  wire [W-1:0] rows [0:NIN-1];
  wire [W-1:0] y_w = {{(W-N){1'b0}}, y_q};

  generate
    for (j = 0; j < K; j = j + 1) begin : g_ab
      // Temp = a_i*B << KT; C_l enters bit 0 of row 0 (the low KT >= 2 bits of Temp are 0).
      wire [W-1:0] row = a_i[j] ? (y_w << (KT + j)) : {W{1'b0}};
      if (j == 0) begin : g_cl
        assign rows[j] = row | {{(W-1){1'b0}}, cl_q};
      end else begin : g_nocl
        assign rows[j] = row;
      end
    end
    if (PP == 0) begin : g_qand
      wire [W-1:0] m_w = {{(W-N){1'b0}}, m_q};
      for (j = 0; j < K; j = j + 1) begin : g_qm
        assign rows[K + j] = q_used[j] ? (m_w << j) : {W{1'b0}};
      end
      wire unused_tm = ^{tm_we_i, tm_addr_i, tm_data_i};
    end else begin : g_qtab
      reg [N+WIN-1:0] tm_q [0:TN-1];
      always @(posedge clk_i) begin
        if (tm_we_i) tm_q[tm_addr_i] <= tm_data_i;
      end
      for (j = 0; j < NQ; j = j + 1) begin : g_qm
        wire [N+WIN-1:0] mult = tm_q[q_used[j*WIN +: WIN]];
        assign rows[K + j] = {{(W-N-WIN){1'b0}}, mult} << (j * WIN);
      end
    end
  endgenerate
  assign rows[K + NQ]     = {{K{1'b0}}, z0_q};
  assign rows[K + NQ + 1] = {{K{1'b0}}, z1_q};
  assign rows[K + NQ + 2] = {{K{1'b0}}, z2_q};
  assign rows[K + NQ + 3] = {{(W-1){1'b0}}, cm_q};

  // --- Update: compression to three words, carry bits, shift by K ----------------------------
  wire [NIN*W-1:0] tree_in;
  wire [3*W-1:0]   tree_out;
  generate
    for (j = 0; j < NIN; j = j + 1) begin : g_in
      assign tree_in[j*W +: W] = rows[j];
    end
  endgenerate
  csa_tree #(.W(W), .NIN(NIN), .NOUT(3), .CELL(CELL), .EAC(0), .REG_EVERY(0)) u_tree (
    .clk_i(clk_i),
    .in_i (tree_in),
    .out_o(tree_out)
  );
  wire [W-1:0] w0 = tree_out[0 +: W];
  wire [W-1:0] w1 = tree_out[W +: W];
  wire [W-1:0] w2 = tree_out[2*W +: W];
  // The carry bit module (Sec. 4.3.1): C_l = OR of bits K-1, K-2 (eq. (32));
  // C_m = 1 iff 2*n_m + n_l >= 6 (SPEC 3.3; the case list's unreachable entries dropped).
  wire [2:0] hi = {w2[K-1], w1[K-1], w0[K-1]};
  wire [2:0] lo = {w2[K-2], w1[K-2], w0[K-2]};
  wire [2:0] n_m = {2'b0, hi[0]} + {2'b0, hi[1]} + {2'b0, hi[2]};
  wire [2:0] n_l = {2'b0, lo[0]} + {2'b0, lo[1]} + {2'b0, lo[2]};
  wire [3:0] cm_score = {n_m, 1'b0} + {1'b0, n_l};
  wire cl_d = |{hi, lo};
  wire cm_d = (cm_score >= 4'd6);

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      run_q  <= 1'b0;
      cnt_q  <= {CW{1'b0}};
      xs_q   <= {(D*K){1'b0}};
      y_q    <= {N{1'b0}};
      m_q    <= {N{1'b0}};
      mp_q   <= {KT{1'b0}};
      mp3_q  <= {KT{1'b0}};
      z0_q   <= {ZW{1'b0}};
      z1_q   <= {ZW{1'b0}};
      z2_q   <= {ZW{1'b0}};
      cl_q   <= 1'b0;
      cm_q   <= 1'b0;
    end else begin
      if (go) begin
        busy_q <= 1'b1;
        run_q  <= 1'b1;
        cnt_q  <= {CW{1'b0}};
        xs_q   <= {{(D*K-N){1'b0}}, x_i};
        y_q    <= y_i;
        m_q    <= m_i;
        mp_q   <= mp_i;
        mp3_q  <= mp_i + {mp_i[KT-2:0], 1'b0};
        z0_q   <= {ZW{1'b0}};
        z1_q   <= {ZW{1'b0}};
        z2_q   <= {ZW{1'b0}};
        cl_q   <= 1'b0;
        cm_q   <= 1'b0;
      end else begin
        if (run_q) begin
          cnt_q <= cnt_q + 1'b1;
          xs_q  <= xs_q >> K;
          z0_q  <= w0[W-1:K];
          z1_q  <= w1[W-1:K];
          z2_q  <= w2[W-1:K];
          cl_q  <= cl_d;
          cm_q  <= cm_d;
          if (last_it) run_q <= 1'b0;
        end
        if (fin_done) busy_q <= 1'b0;
      end
    end
  end

  // --- final stage: Z0+Z1+Z2+C_l+C_m < 2m, then one conditional subtraction of m ------------
  // The last iteration's shifted words go straight to a 3:2 row and into add_sub_sel, which
  // registers them at the edge ending that iteration (the final state is never needed in the
  // registers). Each word is at most the value it helps represent (< 2m < 2^(N+1)), so N+1
  // bits of each are exact, and so is the 3:2 row's carry word.
  wire [N:0] f_s, f_c, f_z;
  csa_3to2 #(.W(N + 1)) u_f32 (
    .a_i(w0[K +: N + 1]),
    .b_i(w1[K +: N + 1]),
    .c_i(w2[K +: N + 1]),
    .s_o(f_s),
    .c_o(f_c)
  );
  wire unused_fbusy;
  add_sub_sel #(.W(N + 1), .F(F), .SERIAL(SERIAL)) u_fin (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(last_it),
    .a_i    (f_s),
    .b_i    (f_c | {{N{1'b0}}, cl_d}),
    .cin_i  (cm_d),
    .m_i    ({1'b0, m_q}),
    .valid_o(fin_done),
    .z_o    (f_z),
    .busy_o (unused_fbusy)
  );

  assign z_o    = f_z[N-1:0];
  assign done_o = fin_done;
  assign busy_o = busy_q & ~fin_done;

  // Bits read on purpose for nothing: the dropped low bits of the words, the top of the sums.
  wire unused_ok = ^{f_z[N], w0[W-1:K+N+1], w1[W-1:K+N+1], w2[W-1:K+N+1]};
  generate
    if (K > 2) begin : g_unused_low
      wire unused_low = ^{w0[K-3:0], w1[K-3:0], w2[K-3:0]};
    end
    if (T > 1) begin : g_unused_prod
      wire unused_prod = ^q_sum[KT-K-1:0];
    end
  endgenerate
endmodule
