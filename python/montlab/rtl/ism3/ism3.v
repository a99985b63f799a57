// ism3: interleaved spectral Montgomery multiplication over q = 2^V + 1, on one transform
//   engine, one Karatsuba multiplier mod q and one three-trunk accumulator.
//
// Citation: Chen, Yao, Koc, Cheung, ISM3, Algorithm 3 as corrected in SPEC 2.3 (output
//   z = x y r^-1 mod n with z < 2n, no final subtraction), the eq. (3) network (SPEC 2.2), the
//   eq. (7) look-ahead (SPEC 2.4), Algorithm 1 and the redundant signed residues of Sec. IV-B
//   (SPEC 2.5), the Karatsuba multiplier of Sec. IV-C and the architecture of Sec. IV-A/D/E
//   (Fig. 3: the ⊙ -> IFFT -> mod/div -> FFT combination run three times on shared units).
//   Python model: montlab.ref.ism3.mont_mul_spectral and its trace.
// Parameters: V (q = 2^V + 1, a power of two); D transform points (s = D/2 digits per operand);
//   MU digit bits (b = 2^MU, r = 2^(s MU)); OMEGA_LOG2 (omega = 2^OMEGA_LOG2, OMEGA_LOG2 D =
//   2V); LANES butterflies per cycle; BFLY_LAT; PINGPONG (fermat_ntt); BASE_W, BASE_LAT,
//   LEVEL_LAT (karatsuba_mul: the multiplier latency). montlab.hw.specs.ism3 derives MU and
//   OMEGA_LOG2 from (V, D) by the Table II rules.
// Function: with X = FFT(x), Y = FFT(y), N = FFT(n) and N' = FFT(n') loaded (load ports x_,
//   y_, n_, np_ while idle; natural order, entries in [0, q)), start_i runs twelve phases:
//    1 MUL_T   T = X . Y (T kept in the T RAM as a redundant signed residue, Sec. IV-B)
//    2 IFFT_T  t = IFFT(T)                 3 ACC_G  g = eval(t) mod r
//    4 FFT_G   G = FFT(g)                  5 MUL_U  U = G . N'
//    6 IFFT_U  u = IFFT(U)                 7 ACC_M  m = eval(u) mod r
//    8 FFT_M   M = FFT(m)                  9 MUL_K  Z = T + M . N
//   10 IFFT_Z  zc = IFFT(Z)               11 ACC_Z  z = eval(zc) / r (eps look-ahead)
//   12 FFT_Z   FFT(z)
//   and leaves z (s digits, z RAM) and FFT(z) (the engine's current group) for the read port.
//   Read port (while idle or paused): sel 0 z digit, 1 engine current group, 2 engine other
//   group (positions), 3 T RAM (two's complement); rd_data_o two cycles after rd_re_i.
// Ranges: x, y < 2n, n odd, n < 2^(s MU - 2) (eq. (6)), 2 s b^2 < q (eq. (5)),
//   s <= 2^(MU-2) (the look-ahead); z < 2n. Operands outside are outside the contract.
// Left out: the precomputation of N, N' and of the operand spectra (loaded), exponentiation
//   control (the testbench feeds FFT(z) back as X), overlapping of phases.
// Schedule: start_i at an edge while idle; the phases run back to back (phase_o); the
//   engine's transforms follow montlab.hw.fermat_ntt_schedule, and a whole product takes
//   montlab.hw.ism3_schedule's cycles (the tests compare). MUL phases stream one index per
//   cycle: operands 2 cycles after the read, the product u_mul's latency later, one rank to
//   meet the T word (Z = T + K in MUL_K), one rank to register the write data, then the write
//   to the engine's other group at the bit-reversed position. ACC phases read coefficients one
//   per cycle (times 2^-L), a digit leaves the accumulator 3 cycles after its read and is
//   written at its bit-reversed position, then zeros fill indices s..D-1 (at their bit-reversed
//   positions too). A transform phase swaps the engine's groups (1 cycle) and starts it
//   (1 cycle). With step_i the sequencer stops after each phase (paused_o) until go_i. done_o
//   is high for one cycle at the end.
`default_nettype none

module ism3 #(
  parameter integer V          = 32,
  parameter integer D          = 32,
  parameter integer MU         = 13,
  parameter integer OMEGA_LOG2 = 2,
  parameter integer LANES      = 4,
  parameter integer BFLY_LAT   = 2,
  parameter integer PINGPONG   = 0,
  parameter integer BASE_W     = 17,
  parameter integer BASE_LAT   = 3,
  parameter integer LEVEL_LAT  = 4
) (
  input  wire            clk_i,
  input  wire            rst_ni,
  input  wire            start_i,
  input  wire            step_i,
  input  wire            go_i,
  output wire            busy_o,
  output wire            done_o,
  output wire            paused_o,
  output wire [3:0]      phase_o,
  output wire [1:0]      eps_o,
  output wire            race_o,
  input  wire            x_we_i,
  input  wire [L-1:0]    x_addr_i,
  input  wire [V:0]      x_data_i,
  input  wire            y_we_i,
  input  wire [L-1:0]    y_addr_i,
  input  wire [V:0]      y_data_i,
  input  wire            n_we_i,
  input  wire [L-1:0]    n_addr_i,
  input  wire [V:0]      n_data_i,
  input  wire            np_we_i,
  input  wire [L-1:0]    np_addr_i,
  input  wire [V:0]      np_data_i,
  input  wire            rd_re_i,
  input  wire [1:0]      rd_sel_i,
  input  wire [L-1:0]    rd_addr_i,
  output wire            rd_valid_o,
  output wire [V+1:0]    rd_data_o
);
  localparam integer L   = $clog2(D);
  localparam integer S   = D / 2;
  localparam integer EW  = $clog2(2 * V);
  localparam integer LW  = $clog2(L + 1);
  localparam integer IW  = L + 1;                     // index counters: 0..D

  // Phases.
  localparam [3:0] P_IDLE = 4'd0, P_MUL_T = 4'd1, P_IFFT_T = 4'd2, P_ACC_G = 4'd3,
                   P_FFT_G = 4'd4, P_MUL_U = 4'd5, P_IFFT_U = 4'd6, P_ACC_M = 4'd7,
                   P_FFT_M = 4'd8, P_MUL_K = 4'd9, P_IFFT_Z = 4'd10, P_ACC_Z = 4'd11,
                   P_FFT_Z = 4'd12;

  generate
    if (V < 4 || (1 << $clog2(V)) != V || S < 2 || (1 << L) != D || MU < 2)
    begin : g_illegal
      ism3_illegal_parameters u_stop ();
    end
  endgenerate

  // --- sequencer -----------------------------------------------------------------------------
  reg  [3:0]    phase_q;
  reg           busy_q, done_q, pause_q;
  reg  [IW-1:0] iss_q;      // reads issued in this phase
  reg  [IW-1:0] wr_q;       // engine writes done in this phase (MUL/ACC), or the sub-step
  wire          is_mul = (phase_q == P_MUL_T) || (phase_q == P_MUL_U) || (phase_q == P_MUL_K);
  wire          is_acc = (phase_q == P_ACC_G) || (phase_q == P_ACC_M) || (phase_q == P_ACC_Z);
  wire          is_ntt = (phase_q == P_IFFT_T) || (phase_q == P_FFT_G) || (phase_q == P_IFFT_U) ||
                         (phase_q == P_FFT_M) || (phase_q == P_IFFT_Z) || (phase_q == P_FFT_Z);
  wire          acc_div = (phase_q == P_ACC_Z);
  wire          run = busy_q && !pause_q;

  // Reads per phase: MUL: D; ACC mod r: s (coefficients 0..s-1); ACC div r: s + 2 (s-2..D-1).
  localparam [31:0] NDIV32 = S + 2, SM2_32 = S - 2;
  wire [IW-1:0] n_reads = is_mul ? D[IW-1:0] : (acc_div ? NDIV32[IW-1:0] : S[IW-1:0]);
  wire          issuing = run && (is_mul || is_acc) && (iss_q < n_reads);
  wire [L-1:0]  rd_idx  = acc_div ? iss_q[L-1:0] + SM2_32[L-1:0] : iss_q[L-1:0];

  // Engine control.
  wire ntt_done;
  wire ntt_busy;
  wire ntt_grp;
  wire ntt_swap  = run && is_ntt && (wr_q == {IW{1'b0}});
  wire ntt_start = run && is_ntt && (wr_q == {{(IW-1){1'b0}}, 1'b1});
  wire ntt_sign  = (phase_q == P_IFFT_T) || (phase_q == P_IFFT_U) || (phase_q == P_IFFT_Z);

  // Engine writes of this phase (MUL: products; ACC: digits, then zeros).
  wire          e_we;
  wire [L-1:0]  e_widx;
  wire [V:0]    e_wdata;
  wire          phase_end = run && (((is_mul || is_acc) && wr_q == D[IW-1:0]) ||
                                    (is_ntt && ntt_done));

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      phase_q <= P_IDLE;
      busy_q  <= 1'b0;
      done_q  <= 1'b0;
      pause_q <= 1'b0;
      iss_q   <= {IW{1'b0}};
      wr_q    <= {IW{1'b0}};
    end else begin
      done_q <= 1'b0;
      if (!busy_q) begin
        if (start_i) begin
          busy_q  <= 1'b1;
          phase_q <= P_MUL_T;
          iss_q   <= {IW{1'b0}};
          wr_q    <= {IW{1'b0}};
        end
      end else if (pause_q) begin
        if (go_i) pause_q <= 1'b0;
      end else if (phase_end) begin
        iss_q <= {IW{1'b0}};
        wr_q  <= {IW{1'b0}};
        if (phase_q == P_FFT_Z) begin
          busy_q  <= 1'b0;
          done_q  <= 1'b1;
          phase_q <= P_IDLE;
        end else begin
          phase_q <= phase_q + 4'd1;
          pause_q <= step_i;
        end
      end else begin
        if (issuing) iss_q <= iss_q + 1'b1;
        if ((is_mul || is_acc) && e_we) wr_q <= wr_q + 1'b1;
        if (is_ntt && wr_q < 2) wr_q <= wr_q + 1'b1;   // swap, then start
      end
    end
  end

  assign busy_o   = busy_q;
  assign done_o   = done_q;
  assign paused_o = pause_q;
  assign phase_o  = phase_q;

  // --- constant and operand RAMs: X, Y, N, N' (load port) and T ------------------------------------
  wire ext_rd  = rd_re_i && (!busy_q || pause_q);
  wire [V:0] xr, yr, nr, npr;
  wire [L-1:0] op_addr = iss_q[L-1:0];
  sdp_ram #(.W(V + 1), .DEPTH(D)) u_x (
    .clk_i(clk_i), .we_i(1'b0), .waddr_i({L{1'b0}}), .wdata_i({(V+1){1'b0}}),
    .raddr_i(op_addr), .rdata_o(xr),
    .ld_we_i(x_we_i && !busy_q), .ld_addr_i(x_addr_i), .ld_data_i(x_data_i)
  );
  sdp_ram #(.W(V + 1), .DEPTH(D)) u_y (
    .clk_i(clk_i), .we_i(1'b0), .waddr_i({L{1'b0}}), .wdata_i({(V+1){1'b0}}),
    .raddr_i(op_addr), .rdata_o(yr),
    .ld_we_i(y_we_i && !busy_q), .ld_addr_i(y_addr_i), .ld_data_i(y_data_i)
  );
  sdp_ram #(.W(V + 1), .DEPTH(D)) u_n (
    .clk_i(clk_i), .we_i(1'b0), .waddr_i({L{1'b0}}), .wdata_i({(V+1){1'b0}}),
    .raddr_i(op_addr), .rdata_o(nr),
    .ld_we_i(n_we_i && !busy_q), .ld_addr_i(n_addr_i), .ld_data_i(n_data_i)
  );
  sdp_ram #(.W(V + 1), .DEPTH(D)) u_np (
    .clk_i(clk_i), .we_i(1'b0), .waddr_i({L{1'b0}}), .wdata_i({(V+1){1'b0}}),
    .raddr_i(op_addr), .rdata_o(npr),
    .ld_we_i(np_we_i && !busy_q), .ld_addr_i(np_addr_i), .ld_data_i(np_data_i)
  );

  // --- the engine ------------------------------------------------------------------------------
  wire          e_re    = (issuing && phase_q != P_MUL_T) || (ext_rd && (rd_sel_i[1] ^ rd_sel_i[0]));
  wire [L-1:0]  e_ridx  = issuing ? rd_idx : rd_addr_i;
  wire [EW-1:0] e_rexp;
  wire          e_rother = !issuing && rd_sel_i == 2'd2;
  wire          e_rvalid;
  wire [V:0]    e_rdata;
  // ACC phases read the IFFT's coefficients times d^-1 = 2^-L.
  localparam [31:0] SCALE32 = 2 * V - L;
  assign e_rexp = (issuing && is_acc) ? SCALE32[EW-1:0] : {EW{1'b0}};

  // ISM3 does not stream (FMLM3's final-stage operators do).
  wire          unused_st_v;
  wire [L-2:0]  unused_st_k;
  wire [V:0]    unused_st_lo, unused_st_hi;
  fermat_ntt #(
    .K(V), .D(D), .LANES(LANES), .BFLY_LAT(BFLY_LAT), .GROUPS(2), .PINGPONG(PINGPONG),
    .OMEGA_LOG2(OMEGA_LOG2), .A_LOG2(0)
  ) u_ntt (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .start_i(ntt_start), .sign_i(ntt_sign), .nega_i(1'b0),
    .j0_i({LW{1'b0}}), .jn_i(L[LW-1:0]),
    .busy_o(ntt_busy), .done_o(ntt_done), .race_o(race_o), .grp_o(ntt_grp),
    .ext_we_i(e_we), .ext_widx_i(e_widx), .ext_bitrev_i(1'b1), .ext_wdata_i(e_wdata),
    .ext_wother_i(1'b1), .swap_i(ntt_swap),
    .ext_re_i(e_re), .ext_ridx_i(e_ridx), .ext_rexp_i(e_rexp), .ext_rother_i(e_rother),
    .ext_rvalid_o(e_rvalid), .ext_rdata_o(e_rdata),
    .stream_i(1'b0), .st_valid_o(unused_st_v), .st_idx_o(unused_st_k), .st_lo_o(unused_st_lo),
    .st_hi_o(unused_st_hi)
  );

  // --- MUL phases ------------------------------------------------------------------------------
  // Operands two cycles after the read: RAM words get one more rank to match the engine port.
  wire [V:0] xr2, yr2, nr2, npr2;   // (xr2 and yr2 in MUL_T only)
  delay_line #(.W(4 * (V + 1)), .N(1)) u_opd (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({xr, yr, nr, npr}), .q_o({xr2, yr2, nr2, npr2})
  );
  wire          iss_mul = issuing && is_mul;
  wire          mv2;
  wire [L-1:0]  mi2;
  delay_line #(.W(1), .N(2), .RST(1)) u_mv2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(iss_mul), .q_o(mv2)
  );
  delay_line #(.W(L), .N(2)) u_mi2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(op_addr), .q_o(mi2)
  );
  wire [V:0] ma = (phase_q == P_MUL_T) ? xr2 : e_rdata;
  wire [V:0] mb = (phase_q == P_MUL_T) ? yr2 : ((phase_q == P_MUL_U) ? npr2 : nr2);

  wire          mv;
  wire [L-1:0]  mi;
  wire [V+2:0]  mstep;
  wire [V:0]    mres;
  fermat_mul #(
    .K(V), .BASE_W(BASE_W), .BASE_LAT(BASE_LAT), .LEVEL_LAT(LEVEL_LAT), .RED_LAT(1), .TW(L)
  ) u_mul (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(mv2), .tag_i(mi2), .a_i({1'b0, ma}),
    .b_i({1'b0, mb}), .valid_o(mv), .tag_o(mi), .step_o(mstep), .res_o(mres)
  );

  // One rank after the multiplier: the T word of the product's index arrives (MUL_K reads it
  // at the multiplier's output), and MUL_T stores the redundant product there.
  wire          pv;
  wire [L-1:0]  pi;
  wire [V+1:0]  pstep;
  wire [V:0]    pres;
  delay_line #(.W(1), .N(1), .RST(1)) u_pv (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(mv), .q_o(pv)
  );
  delay_line #(.W(L + 2 * V + 3), .N(1)) u_pd (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({mi, mstep[V+1:0], mres}), .q_o({pi, pstep, pres})
  );
  wire [V+1:0] tr;
  sdp_ram #(.W(V + 2), .DEPTH(D)) u_t (
    .clk_i(clk_i), .we_i(pv && phase_q == P_MUL_T), .waddr_i(pi), .wdata_i(pstep),
    .raddr_i(busy_q && !pause_q ? mi : rd_addr_i), .rdata_o(tr),
    .ld_we_i(1'b0), .ld_addr_i({L{1'b0}}), .ld_data_i({(V+2){1'b0}})
  );

  // Z = T + K mod q (MUL_K): T is redundant signed (V + 2 bits), K = pres in [0, q). With
  // zsum = hi 2^V + lo (hi signed, 3 bits), zsum = lo - hi mod q, and lo - hi lies in
  // [-3, 2^V + 3]: one correction by +q or -q gives [0, q) (three adders deep).
  wire [V+2:0] zsum = {tr[V+1], tr} + {2'b00, pres};
  wire [V+1:0] zr   = {2'b00, zsum[V-1:0]} - {{(V-1){zsum[V+2]}}, zsum[V+2:V]};
  wire [V+1:0] q_c  = {2'b01, {(V-1){1'b0}}, 1'b1};
  wire [V+1:0] zrp  = zr + q_c;
  wire [V+1:0] zrm  = zr - q_c;
  wire [V+1:0] zsel = zr[V+1] ? zrp : (zrm[V+1] ? zr : zrm);
  wire [V:0]   zres = zsel[V:0];

  // One rank before the engine write (the MUL write data: product, or Z = T + K reduced).
  wire          wv;
  wire [L-1:0]  wi;
  wire [V:0]    wres;
  delay_line #(.W(1), .N(1), .RST(1)) u_wv (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(pv), .q_o(wv)
  );
  delay_line #(.W(L + V + 1), .N(1)) u_wd (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({pi, (phase_q == P_MUL_K) ? zres : pres}),
    .q_o({wi, wres})
  );

  // --- ACC phases ------------------------------------------------------------------------------
  wire          iss_acc = issuing && is_acc;
  wire          av;
  delay_line #(.W(1), .N(2), .RST(1)) u_av (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(iss_acc), .q_o(av)
  );
  wire          dv;
  wire [MU-1:0] digit;
  ism3_acc #(.V(V), .MU(MU)) u_acc (
    .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(run && is_acc && iss_q == {IW{1'b0}}),
    .div_i(acc_div), .valid_i(av), .coef_i(e_rdata),
    .valid_o(dv), .digit_o(digit), .eps_o(eps_o)
  );
  // Digits 0..s-1 as they come, then zeros at s..D-1 (ACC writes wr_q in index order).
  wire zero_fill = is_acc && (wr_q >= S[IW-1:0]) && (wr_q < D[IW-1:0]);

  // z digits (ACC_Z) for the read port.
  wire [MU-1:0] zd;
  sdp_ram #(.W(MU), .DEPTH(S)) u_z (
    .clk_i(clk_i), .we_i(dv && acc_div), .waddr_i(wr_q[L-2:0]), .wdata_i(digit),
    .raddr_i(rd_addr_i[L-2:0]), .rdata_o(zd),
    .ld_we_i(1'b0), .ld_addr_i({(L-1){1'b0}}), .ld_data_i({MU{1'b0}})
  );

  // --- engine writes ---------------------------------------------------------------------------
  assign e_we    = run && ((is_mul && wv) || (is_acc && (dv || zero_fill)));
  assign e_widx  = is_mul ? wi : wr_q[L-1:0];
  assign e_wdata = is_mul ? wres : (zero_fill ? {(V+1){1'b0}} : {{(V+1-MU){1'b0}}, digit});

  // --- read port -------------------------------------------------------------------------------
  reg  [1:0] rsel1_q, rsel2_q;
  reg        rv1_q, rv2_q;
  reg  [V+1:0] rd_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rv1_q <= 1'b0;
      rv2_q <= 1'b0;
    end else begin
      rv1_q <= ext_rd;
      rv2_q <= rv1_q;
    end
  end
  wire [V+1:0] tr_1, zd_1;
  always @(posedge clk_i) begin
    rsel1_q <= rd_sel_i;
    rsel2_q <= rsel1_q;
  end
  delay_line #(.W(2 * (V + 2)), .N(1)) u_rd1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({tr, {{(V+2-MU){1'b0}}, zd}}), .q_o({tr_1, zd_1})
  );
  always @* begin
    case (rsel2_q)
      2'd0: rd_q = zd_1;
      2'd3: rd_q = tr_1;
      default: rd_q = {1'b0, e_rdata};
    endcase
  end
  assign rd_valid_o = rv2_q;
  assign rd_data_o  = rd_q;

  wire unused = ^{ntt_busy, e_rvalid, mstep[V+2], zsel[V+1], ntt_grp};
endmodule
