// fmlm3: FFT-based McLaughlin Montgomery multiplication over M = 2^K + 1, microprogrammed on one
//   transform unit, one multiply-adder and digit-serial time-domain units.
//
// Citation: FMLM3 paper, Algorithms 2 and 3 as corrected in SPEC 1.4/1.5 (z0 digit-wise, step
//   12 w = NCT^-1(Z4), the eq. (12) window lift, "t >= N", Q' = 2^l + 1), the transforms of
//   eqs. (7)-(9) with the c = 1/2 twiddles of eqs. (23)-(24), the units of Fig. 3-7 and the
//   depths of Sec. 5.5. Python model: montlab.ref.fmlm3.mont_mul_spectral and its trace.
// Parameters: P transform points (P = 2^v >= 8), U digit bits (B = 2^U, l = U P), K ring
//   exponent (M = 2^K + 1, K = cP: c a positive integer, or K = P/2 with SQRT2 = 1), ALG (2 or
//   3), LANES butterfly structures (BFS: 1, 2 or 4), BFLY_LAT / SW_LAT / RD_LAT (the engine's
//   depths; the paper's 6 / 2 / 1), BASE_W, BASE_LAT, LEVEL_LAT (karatsuba_mul); erratum
//   switches, each 0 in the corrected design: STEP12 = 1, the printed step 12 (w = NCT^-1 of
//   the step-8 transform T'(m), the hardware's z1 after step 7, not of Z4; erratum 1);
//   GT_N = 1, the printed "t > N" of step 17 (erratum 2); SYM_LIFT = 1, a symmetric lift
//   (w_n > M/2) instead of the eq. (12) window.
// Function: with T(x), T'(x), T(y), T'(y), T(N'), T'(N) (natural order, [0, M)) and the digits
//   of N loaded, and x0y0_i = x_0 AND y_0, start_i runs the microprogram of fmlm3_ucode.v
//   (montlab.hw.fmlm3_ucode) and leaves t = x y R^-1 mod N (R = 2^l - 1; digits, sel 0), T(t)
//   (sel 1) and T'(t) (sel 2, the engine's current group) for the read port.
// Ranges: N odd, N < R, gcd(N, R) = 1; x, y < N; the ring satisfies eq. (13) (ALG 2) or eq.
//   (19) (ALG 3); result t < N. Operands outside are outside the contract.
// Word size and radix: spectra K + 1 bits; the inverses' final-stage operators two radix-2^U
//   digits per cycle (one per half); the time-domain passes one digit per cycle.
// Left out: the precomputation of T(N'), T'(N) and the operand spectra (loaded); the paper's
//   2- and 4-digit segments in the time-domain units; its accumulator of two adjacent digits
//   (eqs. (21)-(22)): a radix-2 network's last butterfly yields x_k and x_k+P/2, so here FSO A
//   and B accumulate the two halves and a merge joins them (below); a ROM of the eq. (12)
//   bounds (they are counted up, 2(n+1)(B-1)^2); exponentiation control (the testbench feeds
//   T(t), T'(t) back).
// Schedule: start_i at an edge while idle; the phases run back to back, one microprogram word
//   each (phase_o = the program counter). Streaming phases issue one index per cycle and end
//   the cycle after their last write; a transform phase swaps the engine's groups (1 cycle),
//   starts it (1 cycle) and ends with its done_o, an inverse 5 cycles after its last streamed
//   pair (the FSOs' shift, lift and accumulator ranks, the merge; + 2 for the sqrt 2 ranks of
//   (A^n P)^-1 at c = 1/2); start_i also swaps the engine's groups when
//   group 1 is current, so every product runs the same groups. montlab.hw.fmlm3_schedule
//   gives every phase's length (the tests compare). done_o is high for one cycle at the end.
`default_nettype none

module fmlm3 #(
  parameter integer P         = 8,
  parameter integer U         = 4,
  parameter integer K         = 24,
  parameter integer ALG       = 3,
  parameter integer SQRT2     = 0,
  parameter integer LANES     = 2,
  parameter integer BFLY_LAT  = 6,
  parameter integer SW_LAT    = 2,
  parameter integer RD_LAT    = 1,
  parameter integer BASE_W    = 17,
  parameter integer BASE_LAT  = 3,
  parameter integer LEVEL_LAT = 4,
  parameter integer STEP12    = 0,
  parameter integer GT_N      = 0,
  parameter integer SYM_LIFT  = 0
) (
  input  wire            clk_i,
  input  wire            rst_ni,
  input  wire            start_i,
  input  wire            x0y0_i,
  output wire            busy_o,
  output wire            done_o,
  output wire [4:0]      phase_o,
  input  wire            tx_we_i,
  input  wire [L-1:0]    tx_addr_i,
  input  wire [K:0]      tx_data_i,
  input  wire            txn_we_i,
  input  wire [L-1:0]    txn_addr_i,
  input  wire [K:0]      txn_data_i,
  input  wire            ty_we_i,
  input  wire [L-1:0]    ty_addr_i,
  input  wire [K:0]      ty_data_i,
  input  wire            tyn_we_i,
  input  wire [L-1:0]    tyn_addr_i,
  input  wire [K:0]      tyn_data_i,
  input  wire            tnp_we_i,
  input  wire [L-1:0]    tnp_addr_i,
  input  wire [K:0]      tnp_data_i,
  input  wire            tn_we_i,
  input  wire [L-1:0]    tn_addr_i,
  input  wire [K:0]      tn_data_i,
  input  wire            dn_we_i,
  input  wire [L-1:0]    dn_addr_i,
  input  wire [U-1:0]    dn_data_i,
  input  wire            rd_re_i,
  input  wire [1:0]      rd_sel_i,
  input  wire [L-1:0]    rd_addr_i,
  output wire            rd_valid_o,
  output wire [K:0]      rd_data_o
);
  localparam integer L   = $clog2(P);
  localparam integer EW  = $clog2(2 * K);
  localparam integer LW  = $clog2(L + 1);
  localparam integer IW  = L + 1;                  // index counters: 0..P
  localparam integer AW  = K + 4;                  // the accumulator (signed)
  localparam integer OMEGA_LOG2 = (SQRT2 != 0) ? 1 : 2 * K / P;
  localparam integer A_LOG2     = (SQRT2 != 0) ? 0 : K / P;

  generate
    if (P < 8 || (1 << L) != P || U < 1 || ALG < 2 || ALG > 3 || K <= 2 * U ||
        (SQRT2 == 0 && K % P != 0) || (SQRT2 != 0 && 2 * K != P) ||
        STEP12 < 0 || STEP12 > 1 || GT_N < 0 || GT_N > 1 || SYM_LIFT < 0 || SYM_LIFT > 1)
    begin : g_illegal
      fmlm3_illegal_parameters u_stop ();
    end
  endgenerate

  // Opcodes (montlab.hw.fmlm3_ucode.OPS).
  localparam [3:0] O_END = 4'd0, O_MUL = 4'd1, O_NTT = 4'd2, O_Z0 = 4'd4,
                   O_MODR = 4'd5, O_WRM = 4'd6, O_MODQ = 4'd7, O_HALF = 4'd8, O_TSEL = 4'd9,
                   O_OUT = 4'd10, O_COPY = 4'd11, O_OUTN = 4'd12;

  // --- sequencer -----------------------------------------------------------------------------
  reg  [4:0]    pc_q;
  reg           busy_q, done_q;
  reg  [IW-1:0] iss_q;       // reads issued in this phase
  reg  [IW-1:0] wr_q;        // writes done in this phase (a transform: its sub-step)
  reg  [IW-1:0] pw_q;        // writes of the MUL beside a transform (par)
  wire [15:0]   uw, uw_next;
  fmlm3_ucode #(.ALG(ALG)) u_rom (.pc_i(pc_q), .word_o(uw));
  fmlm3_ucode #(.ALG(ALG)) u_rom_next (.pc_i(pc_q + 5'd1), .word_o(uw_next));
  wire [3:0]    op   = uw[15:12];
  wire          par  = uw[11];
  wire          u_sign = uw[10], u_nega = uw[9];
  wire [1:0]    u_a  = uw[8:7];
  wire [2:0]    u_b  = uw[6:4];
  wire          u_c  = uw[3], u_d = uw[2], u_mode = uw[1];
  wire unused_uw = uw[0];

  wire is_ntt  = (op == O_NTT);
  wire is_mul  = (op == O_MUL);
  wire is_half = (op == O_HALF);
  wire mul_on  = is_mul || (is_ntt && par);      // the multiply-adder streams this phase
  // Reads per phase: P, HALF one more (its last step only finishes the shift).
  localparam [IW-1:0] PI = P[IW-1:0];
  wire [IW-1:0] n_reads = is_half ? PI + 1'b1 : PI;
  wire          issuing = busy_q && !is_ntt && (op != O_END) && (iss_q < n_reads);
  wire          par_iss = busy_q && is_ntt && par && (iss_q < PI);
  wire [L-1:0]  idx     = iss_q[L-1:0];

  wire ntt_done, ntt_busy, ntt_race, ntt_grp;
  // A product starts with group 0 current (a swap with start_i when it is not), so that the
  // engine's groups follow the same sequence in every product.
  wire ntt_swap  = (busy_q && is_ntt && (wr_q == {IW{1'b0}})) || (!busy_q && start_i && ntt_grp);
  wire ntt_start = busy_q && is_ntt && (wr_q == {{(IW-1){1'b0}}, 1'b1});
  reg  ntt_fin_q;            // the engine finished (a par phase also waits for its MUL)
  wire w_main;               // a write of this phase's unit happens in this cycle
  wire w_par;                // a write of the MUL beside the transform
  wire fso_fin;              // the FSOs' merge is done (an inverse transform's end)
  wire phase_end = busy_q && ((!is_ntt && wr_q == PI) ||
                              (is_ntt && (ntt_done || ntt_fin_q) && (!par || pw_q == PI) &&
                               (!u_c || fso_fin)));

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_q      <= 5'd0;
      busy_q    <= 1'b0;
      done_q    <= 1'b0;
      iss_q     <= {IW{1'b0}};
      wr_q      <= {IW{1'b0}};
      pw_q      <= {IW{1'b0}};
      ntt_fin_q <= 1'b0;
    end else begin
      done_q <= 1'b0;
      if (!busy_q) begin
        if (start_i) begin
          busy_q <= 1'b1;
          pc_q   <= 5'd0;
          iss_q  <= {IW{1'b0}};
          wr_q   <= {IW{1'b0}};
          pw_q   <= {IW{1'b0}};
        end
      end else if (phase_end) begin
        iss_q     <= {IW{1'b0}};
        wr_q      <= {IW{1'b0}};
        pw_q      <= {IW{1'b0}};
        ntt_fin_q <= 1'b0;
        if (uw_next == 16'h0000) begin
          busy_q <= 1'b0;
          done_q <= 1'b1;
          pc_q   <= 5'd0;
        end else begin
          pc_q <= pc_q + 5'd1;
        end
      end else begin
        if (issuing || par_iss) iss_q <= iss_q + 1'b1;
        if (!is_ntt && w_main) wr_q <= wr_q + 1'b1;
        if (is_ntt && wr_q < 2) wr_q <= wr_q + 1'b1;   // swap, then start
        if (is_ntt && w_par) pw_q <= pw_q + 1'b1;
        if (is_ntt && ntt_done) ntt_fin_q <= 1'b1;
      end
    end
  end

  assign busy_o  = busy_q;
  assign done_o  = done_q;
  assign phase_o = pc_q;

  // Issue-aligned valid and index, one and two cycles later.
  wire          v1, v2;
  wire [IW-1:0] i1, i2;
  delay_line #(.W(1), .N(1), .RST(1)) u_v1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(issuing || par_iss), .q_o(v1)
  );
  delay_line #(.W(1), .N(1), .RST(1)) u_v2 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(v1), .q_o(v2));
  delay_line #(.W(IW), .N(1)) u_i1 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(iss_q), .q_o(i1));
  delay_line #(.W(IW), .N(1)) u_i2 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(i1), .q_o(i2));

  // --- spectral RAMs: operands and constants (load ports), MA (the multiply-adder's own) ------
  wire ext_rd = rd_re_i && !busy_q;
  wire [K:0] txr, txnr, tyr, tynr, tnpr, tnr, mar;
  // Six read-only RAMs written through their load ports while idle, read at the issue index:
  // 0 T(x), 1 T'(x), 2 T(y), 3 T'(y), 4 T(N'), 5 T'(N).
  localparam integer NS = 6;
  wire [NS-1:0]       s_we = {tn_we_i, tnp_we_i, tyn_we_i, ty_we_i, txn_we_i, tx_we_i};
  wire [NS*L-1:0]     s_addr = {tn_addr_i, tnp_addr_i, tyn_addr_i, ty_addr_i, txn_addr_i,
                                tx_addr_i};
  wire [NS*(K+1)-1:0] s_data = {tn_data_i, tnp_data_i, tyn_data_i, ty_data_i, txn_data_i,
                                tx_data_i};
  wire [NS*(K+1)-1:0] s_rd;
  genvar si;
  for (si = 0; si < NS; si = si + 1) begin : g_spec
    sdp_ram #(.W(K + 1), .DEPTH(P)) u_ram (
      .clk_i(clk_i), .we_i(1'b0), .waddr_i({L{1'b0}}), .wdata_i({(K+1){1'b0}}),
      .raddr_i(idx), .rdata_o(s_rd[si*(K+1) +: K+1]),
      .ld_we_i(s_we[si] && !busy_q), .ld_addr_i(s_addr[si*L +: L]),
      .ld_data_i(s_data[si*(K+1) +: K+1])
    );
  end
  assign {tnr, tnpr, tynr, tyr, txnr, txr} = s_rd;

  // --- the transform unit ---------------------------------------------------------------------
  wire          fso    = is_ntt && u_c;        // this transform streams into the FSOs
  wire          st_v;
  wire [L-2:0]  st_k;
  wire [K:0]    st_lo, st_hi;
  reg           e_we;
  reg  [L-1:0]  e_widx;
  reg  [K:0]    e_wdata;
  wire          e_re;
  wire [L-1:0]  e_ridx;
  wire [EW-1:0] e_rexp;
  wire          e_rvalid;
  wire [K:0]    e_rdata;
  fermat_ntt #(
    .K(K), .D(P), .LANES(LANES), .BFLY_LAT(BFLY_LAT), .GROUPS(2), .PINGPONG(1), .ORDER(1),
    .OMEGA_LOG2(OMEGA_LOG2), .A_LOG2(A_LOG2), .SQRT2(SQRT2), .RD_LAT(RD_LAT), .SW_LAT(SW_LAT),
    .STREAM(1)
  ) u_ntt (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .start_i(ntt_start), .sign_i(u_sign), .nega_i(u_nega),
    .j0_i({LW{1'b0}}), .jn_i(L[LW-1:0]),
    .busy_o(ntt_busy), .done_o(ntt_done), .race_o(ntt_race), .grp_o(ntt_grp),
    .ext_we_i(e_we), .ext_widx_i(e_widx), .ext_bitrev_i(1'b1), .ext_wdata_i(e_wdata),
    .ext_wother_i(1'b1), .swap_i(ntt_swap),
    .ext_re_i(e_re), .ext_ridx_i(e_ridx), .ext_rexp_i(e_rexp), .ext_rother_i(1'b0),
    .ext_rvalid_o(e_rvalid), .ext_rdata_o(e_rdata),
    .stream_i(fso), .st_valid_o(st_v), .st_idx_o(st_k), .st_lo_o(st_lo), .st_hi_o(st_hi)
  );
  // The engine is read by MUL (source ENG) and COPY, and by the read port when idle; the
  // inverses' scalings are the FSOs' (below), so its reads are unscaled.
  wire eng_src = is_mul && (u_a == 2'd3 || u_b == 3'd4);
  assign e_re   = (issuing && (eng_src || op == O_COPY)) || (ext_rd && rd_sel_i == 2'd2);
  assign e_ridx = issuing ? idx : rd_addr_i;
  assign e_rexp = {EW{1'b0}};

  // --- the multiply-adder: (A B mod M) + C mod M ------------------------------------------------
  // Operands two cycles after the read (RAM words one more rank, the engine's port has two).
  wire [K:0] txr2, txnr2, tyr2, tynr2, tnpr2, tnr2, mar2;
  delay_line #(.W(7 * (K + 1)), .N(1)) u_opd (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({txr, txnr, tyr, tynr, tnpr, tnr, mar}),
    .q_o({txr2, txnr2, tyr2, tynr2, tnpr2, tnr2, mar2})
  );
  wire [1:0] ma_a = (is_ntt && par) ? 2'd2 : u_a;     // the par MUL: T'(x) . T'(y) -> MA
  wire [2:0] ma_b = (is_ntt && par) ? 3'd2 : u_b;
  // STEP12 (erratum 1): Z4's phase passes T'(m) through (times 1, plus 0).
  wire       z4_op = is_mul && u_c;
  wire       ma_c = !(is_ntt && par) && u_c && !(STEP12 != 0);
  wire       ma_d = (is_ntt && par) || u_d;
  reg  [K:0] opa, opb;
  always @* begin
    case (ma_a)
      2'd0: opa = txr2;
      2'd1: opa = tyr2;
      2'd2: opa = txnr2;
      default: opa = e_rdata;
    endcase
    case (ma_b)
      3'd0: opb = tnpr2;
      3'd1: opb = tnr2;
      3'd2: opb = tynr2;
      3'd3: opb = mar2;
      default: opb = e_rdata;
    endcase
    if (STEP12 != 0 && z4_op) opb = {{K{1'b0}}, 1'b1};
  end
  wire          mv;
  wire [IW-1:0] mi;
  wire [K+2:0]  unused_step;
  wire [K:0]    mres;
  fermat_mul #(
    .K(K), .BASE_W(BASE_W), .BASE_LAT(BASE_LAT), .LEVEL_LAT(LEVEL_LAT), .RED_LAT(1), .TW(IW)
  ) u_mul (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v2 && mul_on), .tag_i(i2), .a_i({1'b0, opa}),
    .b_i({1'b0, opb}), .valid_o(mv), .tag_o(mi), .step_o(unused_step), .res_o(mres)
  );
  // C = MA[i] read at the product's output; the sum one rank later, registered for the write.
  wire          pv;
  wire [IW-1:0] pi;
  wire [K:0]    pres;
  delay_line #(.W(1), .N(1), .RST(1)) u_pv (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(mv), .q_o(pv));
  delay_line #(.W(IW + K + 1), .N(1)) u_pd (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({mi, mres}), .q_o({pi, pres})
  );
  wire [K:0] csum, unused_cdiff;
  fermat_addsub #(.K(K)) u_cadd (
    .a_i(pres), .b_i(ma_c ? mar : {(K+1){1'b0}}), .s_o(csum), .d_o(unused_cdiff)
  );
  wire          wv;
  wire [IW-1:0] wi;
  wire [K:0]    wres;
  delay_line #(.W(1), .N(1), .RST(1)) u_wv (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(pv), .q_o(wv));
  delay_line #(.W(IW + K + 1), .N(1)) u_wd (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({pi, csum}), .q_o({wi, wres})
  );
  sdp_ram #(.W(K + 1), .DEPTH(P)) u_ma (
    .clk_i(clk_i), .we_i(wv && ma_d), .waddr_i(wi[L-1:0]), .wdata_i(wres),
    .raddr_i(ma_c ? mi[L-1:0] : idx), .rdata_o(mar),
    .ld_we_i(1'b0), .ld_addr_i({L{1'b0}}), .ld_data_i({(K+1){1'b0}})
  );
  assign w_par = wv;

  // --- FSO A and B: the inverses' final-stage operators, fed by the engine's stream ----------
  // A radix-2 network's last butterfly k yields x_k and x_k+P/2, so FSO A takes the lower half
  // and FSO B the upper one, a coefficient each per cycle (2 digits per cycle in all). Each:
  // the scaling shift P^-1 = 2^(2K - v) or (A^n P)^-1 = 2^(2K - v - c n) (c = 1/2: 2^(2K - v -
  // n/2), n even, or 2^(2K - v - (n+1)/2) times sqrt 2 = 2^(3P/8) - 2^(P/8), n odd, eq. (24),
  // in two ranks), the window lift (eq. (12): the bound 2(n+1)(B-1)^2 counted up), and its
  // accumulator acc = (acc >> U) + w, digit acc mod B (eqs. (21)-(22) with one coefficient a
  // cycle). A leaves digits 0 .. P/2-1 and r_lo = floor(lo / B^(P/2)); B the digits H of the
  // upper half's sum and its r_hi. The merge adds r_lo to H's first DM digits (|r_lo| < 2^(K+1)
  // and DM U >= K + 2, so its carry out cd is -1, 0 or 1) and keeps, for the digits above,
  // where the run of all-ones (cd = 1) or all-zeros (cd = -1) that the carry crosses ends: the
  // digit read port applies it (dlr), and floor(value / 2^l) = r_hi + cd when the run reaches
  // the top (DM = P/2, no digits above: r_hi + the whole carry).
  localparam integer HP = P / 2;
  localparam integer DM = ((K + 2 + U - 1) / U < HP) ? (K + 2 + U - 1) / U : HP;
  localparam integer WV = ((AW > DM * U + 1) ? AW : DM * U + 1) + 2;
  wire          acc_sq = (SQRT2 != 0) && u_mode;
  // The scaling exponents of n = k (A) and n = k + P/2 (B), registers the shifters read
  // directly: loaded until the phase's first pair (2K - v for P^-1; for (A^n P)^-1 the value at
  // n = h P/2), then, for (A^n P)^-1, stepped per pair, 2K - v - c n (c = 1/2: 2K - v -
  // ceil(n/2)) mod 2K, as the pairs come in order.
  localparam [31:0] SC0 = 2 * K - L;
  reg           sp_q;   // a pair of this phase has come
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sp_q <= 1'b0;
    else if (!fso || phase_end) sp_q <= 1'b0;
    else if (st_v) sp_q <= 1'b1;
  end
  wire [EW-1:0] fexp [0:1];
  genvar h;
  for (h = 0; h < 2; h = h + 1) begin : g_fexp
    localparam integer N0  = h * HP;
    localparam integer CN0 = (SQRT2 != 0) ? (N0 + 1) / 2 : A_LOG2 * N0;
    localparam [31:0]  E0  = (SC0 >= CN0) ? SC0 - CN0 : SC0 + 2 * K - CN0;   // CN0 < 2K
    reg  [EW-1:0] e_q;
    wire [31:0]   e32 = {{(32-EW){1'b0}}, e_q};
    wire [31:0]   dec = (SQRT2 != 0) ? {31'd0, !st_k[0]} : A_LOG2;   // n + 1 odd: k even
    wire [31:0]   nxt = (e32 >= dec) ? e32 - dec : e32 + 2 * K - dec;
    always @(posedge clk_i) begin
      if (fso && st_v) begin
        if (u_mode) e_q <= nxt[EW-1:0];
      end else if (!sp_q) begin
        e_q <= u_mode ? E0[EW-1:0] : SC0[EW-1:0];
      end
    end
    assign fexp[h] = e_q;
    wire unused_e = ^nxt[31:EW];
  end
  wire [K:0] fs_lo, fs_hi;
  fermat_shift #(.K(K), .EW(EW)) u_fsa (.x_i(st_lo), .e_i(fexp[0]), .y_o(fs_lo));
  fermat_shift #(.K(K), .EW(EW)) u_fsb (.x_i(st_hi), .e_i(fexp[1]), .y_o(fs_hi));
  // The shift rank.
  wire          fv1;
  wire [L-2:0]  fk1;
  wire [K:0]    fa1, fb1;
  delay_line #(.W(1), .N(1), .RST(1)) u_fv1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(st_v && fso), .q_o(fv1)
  );
  delay_line #(.W(L - 1 + 2 * (K + 1)), .N(1)) u_fd1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({st_k, fs_lo, fs_hi}), .q_o({fk1, fa1, fb1})
  );
  // c = 1/2, (A^n P)^-1: the sqrt 2 factor of odd n (odd k, both halves) in two ranks; every
  // coefficient takes them, so the order stays.
  wire          fv2;
  wire [L-2:0]  fk2;
  wire [K:0]    fa2, fb2;
  if (SQRT2 != 0) begin : g_sq
    localparam integer SA = 3 * P / 8, SB = P / 8;
    wire [K:0] ta [0:1];
    wire [K:0] tb [0:1];
    wire [K:0] sd [0:1];
    wire [K:0] fx [0:1];
    assign fx[0] = fa1;
    assign fx[1] = fb1;
    wire          sv2;
    wire [L-2:0]  sk1, sk2;
    wire [K:0]    sx1 [0:1];
    wire [K:0]    sa1 [0:1];
    wire [K:0]    sb1 [0:1];
    wire [K:0]    sx2 [0:1];
    for (h = 0; h < 2; h = h + 1) begin : g_h
      wire [K:0] unused_ss;
      fermat_shift #(.K(K), .EW(EW)) u_sa (.x_i(fx[h]), .e_i(SA[EW-1:0]), .y_o(ta[h]));
      fermat_shift #(.K(K), .EW(EW)) u_sb (.x_i(fx[h]), .e_i(SB[EW-1:0]), .y_o(tb[h]));
      delay_line #(.W(3 * (K + 1)), .N(1)) u_sd1 (
        .clk_i(clk_i), .rst_ni(rst_ni), .d_i({fx[h], ta[h], tb[h]}),
        .q_o({sx1[h], sa1[h], sb1[h]})
      );
      fermat_addsub #(.K(K)) u_sdiff (.a_i(sa1[h]), .b_i(sb1[h]), .s_o(unused_ss), .d_o(sd[h]));
      delay_line #(.W(K + 1), .N(1)) u_sd2 (
        .clk_i(clk_i), .rst_ni(rst_ni), .d_i(sk1[0] ? sd[h] : sx1[h]), .q_o(sx2[h])
      );
    end
    delay_line #(.W(1), .N(2), .RST(1)) u_sv (
      .clk_i(clk_i), .rst_ni(rst_ni), .d_i(fv1), .q_o(sv2)
    );
    delay_line #(.W(L - 1), .N(1)) u_sk1 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(fk1), .q_o(sk1));
    delay_line #(.W(L - 1), .N(1)) u_sk2 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(sk1), .q_o(sk2));
    assign fv2 = acc_sq ? sv2 : fv1;
    assign fk2 = acc_sq ? sk2 : fk1;
    assign fa2 = acc_sq ? sx2[0] : fa1;
    assign fb2 = acc_sq ? sx2[1] : fb1;
  end else begin : g_nosq
    assign fv2 = fv1;
    assign fk2 = fk1;
    assign fa2 = fa1;
    assign fb2 = fb1;
    wire unused_sq = acc_sq;
  end
  // The lift rank: the bounds 2(n+1)(B-1)^2 of n = k and n = k + P/2, counted up.
  wire [K:0] one_k = {{K{1'b0}}, 1'b1};
  wire [K:0] bb2 = (one_k << (2 * U + 1)) - (one_k << (U + 2)) + (one_k << 1);  // 2(B-1)^2
  localparam [31:0] HP1 = HP + 1;
  wire [K+32:0] bbh_w = {32'd0, bb2} * {{(K+1){1'b0}}, HP1};
  wire [K:0] bbh = bbh_w[K:0];                           // 2(P/2 + 1)(B-1)^2
  wire [K:0] half_m = one_k << (K - 1);                  // SYM_LIFT: w_n > M/2
  wire [AW-1:0] m_w = {{(AW-K-1){1'b0}}, 1'b1, {(K-1){1'b0}}, 1'b1};   // M = 2^K + 1
  reg  [K:0]    bnda_q, bndb_q;
  reg           lv_q;
  reg  [L-2:0]  lk_q;
  reg  signed [AW-1:0] lwa_q, lwb_q;
  wire lifta = u_mode && (fa2 > ((SYM_LIFT != 0) ? half_m : bnda_q));
  wire liftb = u_mode && (fb2 > ((SYM_LIFT != 0) ? half_m : bndb_q));
  wire [AW-1:0] fa2w = {{(AW-K-1){1'b0}}, fa2};
  wire [AW-1:0] fb2w = {{(AW-K-1){1'b0}}, fb2};
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) lv_q <= 1'b0;
    else lv_q <= fv2;
  end
  always @(posedge clk_i) begin
    lk_q  <= fk2;
    lwa_q <= lifta ? fa2w - m_w : fa2w;
    lwb_q <= liftb ? fb2w - m_w : fb2w;
    if (!fso) begin
      bnda_q <= bb2;
      bndb_q <= bbh;
    end else if (fv2) begin
      bnda_q <= bnda_q + bb2;
      bndb_q <= bndb_q + bb2;
    end
  end
  // The accumulator rank; its digits are written in the next cycle.
  reg                  accv_q;
  reg  [L-2:0]         acck_q;
  reg  signed [AW-1:0] acca_q, accb_q;
  wire                 k0 = (lk_q == {(L-1){1'b0}});
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) accv_q <= 1'b0;
    else accv_q <= lv_q;
  end
  always @(posedge clk_i) begin
    acck_q <= lk_q;
    if (lv_q) begin
      acca_q <= k0 ? lwa_q : (acca_q >>> U) + lwa_q;
      accb_q <= k0 ? lwb_q : (accb_q >>> U) + lwb_q;
    end
  end
  // The merge. H's first DM digits; past them, the first digit that is not all-ones (f1) and
  // the first that is not all-zeros (f0) (fN_set: one was seen).
  wire [U-1:0]  hdig = accb_q[U-1:0];
  wire [U-1:0]  ones = {U{1'b1}};
  wire [31:0]   ak32 = {{(33-L){1'b0}}, acck_q};
  reg  [DM*U-1:0] hcap_q;
  reg  [L-2:0]  f1_q, f0_q;
  reg           f1s_q, f0s_q;
  reg           mrg_q, fin_q;
  wire          klast = accv_q && (acck_q == {(L-1){1'b1}});
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mrg_q <= 1'b0;
      fin_q <= 1'b0;
    end else begin
      mrg_q <= klast;
      fin_q <= mrg_q || (fin_q && !phase_end);
    end
  end
  integer j;
  always @(posedge clk_i) begin
    if (!fso) begin
      f1s_q <= 1'b0;
      f0s_q <= 1'b0;
    end else if (accv_q && ak32 >= DM) begin
      if (!f1s_q) begin
        f1_q  <= acck_q;
        f1s_q <= (hdig != ones);
      end
      if (!f0s_q) begin
        f0_q  <= acck_q;
        f0s_q <= (hdig != {U{1'b0}});
      end
    end
    if (accv_q) begin
      for (j = 0; j < DM; j = j + 1) begin
        if (ak32 == j) hcap_q[j*U +: U] <= hdig;
      end
    end
  end
  // In the cycle after the last digit: V = r_lo + H mod B^DM, its digits, cd = V >> (DM U).
  wire signed [WV-1:0] r_lo = $signed({{(WV-AW){acca_q[AW-1]}}, acca_q}) >>> U;
  wire signed [WV-1:0] r_hi = $signed({{(WV-AW){accb_q[AW-1]}}, accb_q}) >>> U;
  wire signed [WV-1:0] vsum = r_lo + $signed({{(WV-DM*U){1'b0}}, hcap_q});
  wire signed [WV-1:0] cdw  = vsum >>> (DM * U);
  wire signed [1:0]    cd   = cdw[1:0];
  wire                 run_top = (cd == 2'sd1) ? !f1s_q : !f0s_q;   // the carry reaches r_hi
  // DM = P/2: H is merged whole and all of V's carry goes to floor(value / 2^l).
  wire signed [WV-1:0] top = (DM == HP) ? cdw :
                             (run_top && cd != 2'sd0) ? {{(WV-2){cd[1]}}, cd} : {WV{1'b0}};
  reg  [DM*U-1:0]      mdig_q;
  reg  signed [1:0]    cd_q;
  reg  [L-2:0]         fpos_q;
  reg                  fset_q;
  reg  signed [AW-1:0] hiw_q;
  always @(posedge clk_i) begin
    if (mrg_q) begin
      mdig_q <= vsum[DM*U-1:0];
      cd_q   <= cd;
      fpos_q <= (cd == 2'sd1) ? f1_q : f0_q;
      fset_q <= (cd == 2'sd1) ? f1s_q : f0s_q;
      hiw_q  <= r_hi[AW-1:0] + top[AW-1:0];
    end
  end
  wire signed [AW-1:0] hi_w = hiw_q;   // floor(value / 2^l)
  assign fso_fin = fin_q;
  wire unused_fso = ^{cdw[WV-1:2], r_hi[WV-1:AW], top[WV-1:AW], bbh_w[K+32:K+1]};

  // --- digit RAMs -------------------------------------------------------------------------------
  // DLA, DLB: the last inverse's digits 0 .. P/2-1 and H (FSO A's and B's); D1, D2, D3: the
  // time-domain passes' vectors; DN: N's digits (loaded); DR: the result t.
  reg           dl_we, d1_we, d2_we, d3_we, dr_we;
  reg  [L-2:0]  dl_wa;
  reg  [L-1:0]  d1_wa, d2_wa, d3_wa, dr_wa;
  reg  [U-1:0]  dla_wd, dlb_wd, d1_wd, d2_wd, d3_wd, dr_wd;
  wire [U-1:0]  dlar, dlbr, d1r, d2r, d3r, dnr, drr;
  wire [L-1:0]  rd_idx = busy_q ? idx : rd_addr_i;
  sdp_ram #(.W(U), .DEPTH(HP)) u_dla (
    .clk_i(clk_i), .we_i(dl_we), .waddr_i(dl_wa), .wdata_i(dla_wd), .raddr_i(idx[L-2:0]),
    .rdata_o(dlar), .ld_we_i(1'b0), .ld_addr_i({(L-1){1'b0}}), .ld_data_i({U{1'b0}})
  );
  sdp_ram #(.W(U), .DEPTH(HP)) u_dlb (
    .clk_i(clk_i), .we_i(dl_we), .waddr_i(dl_wa), .wdata_i(dlb_wd), .raddr_i(idx[L-2:0]),
    .rdata_o(dlbr), .ld_we_i(1'b0), .ld_addr_i({(L-1){1'b0}}), .ld_data_i({U{1'b0}})
  );
  // The digit i1 of the last inverse's value, the merge applied: digits P/2 + j of H take the
  // merged digit (j < DM), the run digit (0 for cd = 1, B - 1 for cd = -1) up to fpos, H_fpos +
  // cd there, H above.
  wire [L-2:0]  fj   = i1[L-2:0];
  wire [31:0]   fj32 = {{(33-L){1'b0}}, fj};
  wire [U+1:0]  fixd = {2'b00, dlbr} + {{U{cd_q[1]}}, cd_q};
  reg  [U-1:0]  dlr;
  always @* begin
    if (!i1[L-1]) dlr = dlar;
    else if (fj32 < DM) dlr = mdig_q[fj32 * U +: U];
    else if (cd_q == 2'sd0 || (fset_q && fj > fpos_q)) dlr = dlbr;
    else if (fset_q && fj == fpos_q) dlr = fixd[U-1:0];
    else dlr = (cd_q == 2'sd1) ? {U{1'b0}} : {U{1'b1}};
  end
  sdp_ram #(.W(U), .DEPTH(P)) u_d1 (
    .clk_i(clk_i), .we_i(d1_we), .waddr_i(d1_wa), .wdata_i(d1_wd), .raddr_i(idx),
    .rdata_o(d1r), .ld_we_i(1'b0), .ld_addr_i({L{1'b0}}), .ld_data_i({U{1'b0}})
  );
  sdp_ram #(.W(U), .DEPTH(P)) u_d2 (
    .clk_i(clk_i), .we_i(d2_we), .waddr_i(d2_wa), .wdata_i(d2_wd), .raddr_i(idx),
    .rdata_o(d2r), .ld_we_i(1'b0), .ld_addr_i({L{1'b0}}), .ld_data_i({U{1'b0}})
  );
  sdp_ram #(.W(U), .DEPTH(P)) u_d3 (
    .clk_i(clk_i), .we_i(d3_we), .waddr_i(d3_wa), .wdata_i(d3_wd), .raddr_i(idx),
    .rdata_o(d3r), .ld_we_i(1'b0), .ld_addr_i({L{1'b0}}), .ld_data_i({U{1'b0}})
  );
  sdp_ram #(.W(U), .DEPTH(P)) u_dn (
    .clk_i(clk_i), .we_i(1'b0), .waddr_i({L{1'b0}}), .wdata_i({U{1'b0}}), .raddr_i(idx),
    .rdata_o(dnr), .ld_we_i(dn_we_i && !busy_q), .ld_addr_i(dn_addr_i), .ld_data_i(dn_data_i)
  );
  sdp_ram #(.W(U), .DEPTH(P)) u_dr (
    .clk_i(clk_i), .we_i(dr_we), .waddr_i(dr_wa), .wdata_i(dr_wd), .raddr_i(rd_idx),
    .rdata_o(drr), .ld_we_i(1'b0), .ld_addr_i({L{1'b0}}), .ld_data_i({U{1'b0}})
  );
  // RT: T(t), copied out of the engine before T'(t) overwrites it.
  wire [K:0] rtr;
  sdp_ram #(.W(K + 1), .DEPTH(P)) u_rt (
    .clk_i(clk_i), .we_i(v2 && op == O_COPY), .waddr_i(i2[L-1:0]), .wdata_i(e_rdata),
    .raddr_i(rd_addr_i), .rdata_o(rtr), .ld_we_i(1'b0), .ld_addr_i({L{1'b0}}),
    .ld_data_i({(K+1){1'b0}})
  );

  // --- the time-domain passes: one digit per cycle, LSB first ----------------------------------
  // hs: floor(g / 2^l) (signed), shifted a digit per step; the chains' carries and the flags
  // each pass leaves for the next (Fig. 7's selections).
  reg  signed [AW-1:0] hs_q;
  reg        ca_q, cb_q;           // MODR: chains lo + hi and lo + hi + 1
  reg        selm_q, mlsb_q;       // m = lo + hi + 1 - 2^l when that chain carries out; m_0
  reg        bx_q, hneg_q, xz_q;   // MODQ: X = lo - hi mod 2^l, its borrow, hi < 0, X = 0
  reg signed [1:0] cs_q;           // HALF: S = X + delta
  reg        cy_q, odd_q, bs_q, hz_q;
  reg  [U-1:0] yp_q;               // the previous digit of Y = S + odd Q'
  reg        stop_q, sstop_q;      // S's and s's bit l
  reg signed [1:0] ct_q, sig_q;    // TSEL: t = s + sigma Q'
  reg        bn_q, tnz_q, ge_q;        // t - N's borrow, its digits all 0, t >= N

  wire first = (i1 == {IW{1'b0}});
  wire tneg  = bx_q && !hneg_q;     // T = -1: V < 0
  wire tpos  = !bx_q && hneg_q;     // T = +1: V >= 2^l
  wire [U-1:0] hd = hs_q[U-1:0];
  // MODR digit sums.
  wire [U:0] sa = {1'b0, dlr} + {1'b0, hd} + {{U{1'b0}}, first ? 1'b0 : ca_q};
  wire [U:0] sb = {1'b0, dlr} + {1'b0, hd} + {{U{1'b0}}, first ? 1'b1 : cb_q};
  // MODQ: dlr - hd - borrow.
  wire [U+1:0] dx = {2'b00, dlr} - {2'b00, hd} - {{(U+1){1'b0}}, first ? 1'b0 : bx_q};
  // HALF: S_i = X_i + cs (cs = delta at step 0); Y_i = S_i + cy (odd at step 0); at step P the
  // carries give S_top and Y_top.
  wire        hlast = (i1 == PI);
  wire signed [1:0] delta = tneg ? 2'sd1 : ((tpos && !xz_q) ? -2'sd1 : 2'sd0);
  wire signed [1:0] csi = first ? delta : cs_q;
  wire signed [U+2:0] ssum = $signed({3'b000, d1r}) + {{(U+1){csi[1]}}, csi};
  wire [U-1:0] s_dig = ssum[U-1:0];
  wire        odd_i = first ? s_dig[0] : odd_q;
  wire [U:0]  ysum = {1'b0, s_dig} + {{U{1'b0}}, first ? odd_i : cy_q};
  wire        s_top = (cs_q == 2'sd1) || (tpos && xz_q);    // at step P
  wire [1:0]  y_top = {1'b0, s_top} + {1'b0, cy_q} + {1'b0, odd_q};
  wire        ybit = hlast ? y_top[0] : ysum[0];
  wire [U:0]  ypair = {ybit, yp_q};
  wire [U-1:0] h_dig = ypair[U:1];                        // H_(i-1) = Y >> 1, digit i - 1
  wire        h_top = y_top[1];
  wire        hfirst = (i1 == {{(IW-1){1'b0}}, 1'b1});     // H_0 in step 1
  wire [U+1:0] hf_w = {{(U+1){1'b0}}, hfirst};           // Q' = 2^l + 1: its digit 0
  wire [U+1:0] sdx = hf_w - {2'b00, h_dig} -
                     {{(U+1){1'b0}}, hfirst ? 1'b0 : bs_q};
  // TSEL: t_i = s_i + sigma [i = 0] + ct; tn_i = t_i - N_i - bn; sigma from s_0's parity.
  wire        p_bit = x0y0_i ^ (mlsb_q & dnr[0]);
  wire signed [1:0] sig = first ? ((d3r[0] != p_bit) ? (hz_q ? -2'sd1 : 2'sd1) : 2'sd0) : sig_q;
  wire signed [1:0] cti = first ? sig : ct_q;
  wire signed [U+2:0] tsum = $signed({3'b000, d3r}) + {{(U+1){cti[1]}}, cti};
  wire [U-1:0] t_dig = tsum[U-1:0];
  wire [U+1:0] tn = {2'b00, t_dig} - {2'b00, dnr} - {{(U+1){1'b0}}, first ? 1'b0 : bn_q};

  always @(posedge clk_i) begin
    if (issuing && iss_q == {IW{1'b0}}) hs_q <= hi_w;   // every pass starts from floor(g/2^l)
    else if (v1) hs_q <= hs_q >>> U;
    if (v1) begin
      case (op)
        O_MODR: begin
          ca_q <= sa[U];
          cb_q <= sb[U];
          if (i1 == PI - 1'b1) selm_q <= sb[U];
        end
        O_WRM: if (first) mlsb_q <= selm_q ? d2r[0] : d1r[0];
        O_MODQ: begin
          bx_q <= dx[U+1];
          if (first) hneg_q <= hs_q[AW-1];
          xz_q <= (first ? 1'b1 : xz_q) && (dx[U-1:0] == {U{1'b0}});
        end
        O_HALF: begin
          if (!hlast) begin
            cs_q <= ssum[U+1:U];
            cy_q <= ysum[U];
            if (first) odd_q <= odd_i;
            yp_q <= ysum[U-1:0];
          end else begin
            stop_q  <= s_top;
          end
          if (!first) begin
            bs_q <= sdx[U+1];
            hz_q <= (hfirst ? 1'b1 : hz_q) && (h_dig == {U{1'b0}}) && (!hlast || !h_top);
            if (hlast) sstop_q <= !h_top ^ sdx[U+1];   // 1 - H_top - borrow, in {0, 1}
          end
        end
        O_TSEL: begin
          if (first) sig_q <= sig;
          ct_q <= tsum[U+1:U];
          bn_q <= tn[U+1];
          tnz_q <= (first ? 1'b1 : tnz_q) && (tn[U-1:0] == {U{1'b0}});
        end
        default: ;
      endcase
    end
  end
  // After TSEL: t_top = s_top + sigma + the last carry (t < 2N < 2^(l+1): 0 or 1); t >= N
  // when t_top covers the last borrow of t - N (Fig. 7's last selection, "t >= N").
  wire signed [2:0] ttop_full = {2'b00, sstop_q} + {sig_q[1], sig_q} + {ct_q[1], ct_q};
  always @(posedge clk_i) begin
    // GT_N (erratum 2): "t > N" also needs t - N != 0 (t = N, the step-17 corner, stays N).
    if (op == O_OUT && issuing && iss_q == {IW{1'b0}})
      ge_q <= (!bn_q || ttop_full[0]) && !(GT_N != 0 && tnz_q && (ttop_full[0] == bn_q));
  end

  // Writes of this cycle (digit passes write in the cycle their read returns).
  always @* begin
    dl_we = accv_q;
    dl_wa = acck_q;
    dla_wd = acca_q[U-1:0];
    dlb_wd = accb_q[U-1:0];
    d1_we = 1'b0; d2_we = 1'b0; d3_we = 1'b0; dr_we = 1'b0;
    d1_wa = i1[L-1:0]; d2_wa = i1[L-1:0]; d3_wa = i1[L-1:0] - 1'b1; dr_wa = i1[L-1:0];
    d1_wd = {U{1'b0}}; d2_wd = {U{1'b0}}; d3_wd = h_dig; dr_wd = {U{1'b0}};
    e_we = 1'b0; e_widx = i1[L-1:0]; e_wdata = {(K+1){1'b0}};
    case (op)
      O_MUL: begin
        e_we = wv && !u_d; e_widx = wi[L-1:0]; e_wdata = wres;
      end
      O_Z0: begin
        e_we = v1; e_wdata = {{(K-U){1'b0}}, {1'b0, dlr} + {1'b0, hd}};
      end
      O_MODR: begin
        d1_we = v1; d1_wd = sa[U-1:0];
        d2_we = v1; d2_wd = sb[U-1:0];
      end
      O_WRM: begin
        e_we = v1; e_wdata = {{(K+1-U){1'b0}}, selm_q ? d2r : d1r};
      end
      O_MODQ: begin
        d1_we = v1; d1_wd = dx[U-1:0];
      end
      O_HALF: begin
        d2_we = v1 && !hlast; d2_wd = s_dig;
        d3_we = v1 && !first; d3_wd = sdx[U-1:0];
      end
      O_TSEL: begin
        d1_we = v1; d1_wd = t_dig;
        d2_we = v1; d2_wd = tn[U-1:0];
      end
      O_OUT: begin
        dr_we = v1; dr_wd = ge_q ? d2r : d1r;
        e_we = v1; e_wdata = {{(K+1-U){1'b0}}, ge_q ? d2r : d1r};
      end
      O_OUTN: begin
        e_we = v1; e_wdata = {{(K+1-U){1'b0}}, drr};
      end
      default: ;
    endcase
  end
  // The phase's write count: the engine's or a digit RAM's writes (HALF counts s's).
  assign w_main = (op == O_MUL) ? wv :
                  (op == O_COPY) ? v2 :
                  (op == O_HALF) ? (v1 && !first) : v1;

  // --- read port ------------------------------------------------------------------------------
  reg  [1:0] rsel1_q, rsel2_q;
  reg        rv1_q, rv2_q;
  reg  [K:0] rd_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rv1_q <= 1'b0;
      rv2_q <= 1'b0;
    end else begin
      rv1_q <= ext_rd;
      rv2_q <= rv1_q;
    end
  end
  wire [K:0] rtr_1, drr_1;
  always @(posedge clk_i) begin
    rsel1_q <= rd_sel_i;
    rsel2_q <= rsel1_q;
  end
  delay_line #(.W(2 * (K + 1)), .N(1)) u_rd1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({rtr, {{(K+1-U){1'b0}}, drr}}), .q_o({rtr_1, drr_1})
  );
  always @* begin
    case (rsel2_q)
      2'd0: rd_q = drr_1;
      2'd1: rd_q = rtr_1;
      default: rd_q = e_rdata;
    endcase
  end
  assign rd_valid_o = rv2_q;
  assign rd_data_o  = rd_q;

  wire unused = ^{ntt_busy, e_rvalid, i2[IW-1], mi[IW-1], pi[IW-1], wi[IW-1],
                  fixd[U+1:U], unused_step, unused_cdiff, ttop_full[2:1], ntt_race, stop_q,
                  ssum[U+2], tsum[U+2], ypair[0]};
endmodule
