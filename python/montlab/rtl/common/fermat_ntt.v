// fermat_ntt: a constant-geometry radix-2 transform engine modulo q = 2^K + 1 over banked
//   simple-dual-port RAM, LANES shift-only butterflies per cycle.
//
// Citation: ISM3 eq. (3) with the corrected stage order (SPEC 2.2) and Sec. IV-D/E (constant
//   geometry, 8 coefficients per cycle from 8 BRAMs, the channel selector of Fig. 7, ping-pong
//   storage against racing); FMLM3 eqs. (7)-(9) (SPEC 1.2: CT, NCT and the inverse network).
//   Python models: montlab.transforms.ism3_stage / ism3_ntt_network / ism3_intt_network and
//   ct_network / nct_network / ict_network / inct_network; the schedule:
//   montlab.hw.fermat_ntt_schedule.
// Parameters: K (q = 2^K + 1); D points (a power of two, D >= 4 LANES); LANES butterflies per
//   cycle (a power of two); BFLY_LAT (>= 1) the butterflies' latency; GROUPS (1 or 2) RAM
//   groups; PINGPONG (0: stages run in place in the current group; 1: a stage reads one group
//   and writes the other, which needs GROUPS = 2); ORDER (0: consecutive butterflies, ISM3
//   Fig. 9; 1: split halves, FMLM3 Fig. 8); OMEGA_LOG2 = g, the root omega = 2^g (g D = 2K: a
//   primitive D-th root); A_LOG2 = a, the nega-cyclic root A = 2^a (a 2D = 2K; 0: none);
//   SQRT2 = 1: FMLM3's c = 1/2 ring (K = D/2, omega = 2, A = sqrt 2 = 2^(3D/8) - 2^(D/8), eq.
//   (14) as corrected in SPEC 1.2), where the nega-cyclic twiddle of the last stage (J = 1) is
//   the half-integer power of eq. (23), applied by a 2-rank supplemental block; RD_LAT extra
//   ranks after the RAM read and SW_LAT ranks in the channel switch (FMLM3 Sec. 5.5: a 6-cycle
//   butterfly structure, a 2-cycle channel switch and 3 read/write cycles are BFLY_LAT = 6,
//   SW_LAT = 2, RD_LAT = 1); STREAM = 1 (ORDER 1, PINGPONG 1) adds the stream port below (FMLM3
//   Fig. 4: the last stage of CT^-1 / NCT^-1 feeds the final-stage operators).
// Function: the vector x goes through jn_i stages starting at stage j0_i. Stage j
//   (J = 2^(L-1-j), L = lg D) maps (x_2k, x_2k+1) to (x_k, x_k+D/2) = (x_2k + t, x_2k - t),
//   t = x_2k+1 2^e, e = (sign_i ? -1 : 1) g floor(k/J) J + (nega_i ? a J : 0) mod 2K (SQRT2:
//   J/2 for J >= 2, and t = x_2k+1 2^e (2^(3D/8) - 2^(D/8)) for J = 1). So
//   j0_i = 0, jn_i = L on a bit-reversed input gives ISM3's FFT (sign_i = 0) and IFFT before
//   its 2^-L scaling (sign_i = 1), FMLM3's CT (sign_i = 1), NCT (sign_i = 1, nega_i = 1) and
//   the inverse network (sign_i = 0) before their scalings, all in natural order.
//   Storage of position p (S = D / (2 LANES)): ORDER 0, bank p mod 2 LANES, address
//   p / (2 LANES); ORDER 1, bank (p / S + p mod 2) mod 2 LANES, address p mod S.
//   External port (while busy_o is low): ext_we_i writes ext_wdata_i to position ext_widx_i, or
//   to bitrev(ext_widx_i) with ext_bitrev_i (the input permutation, done by addressing), of the
//   current group, or of the other one with ext_wother_i (GROUPS = 2: a vector is built there
//   while the current one is read); swap_i makes the other group current (grp_o says which
//   is); ext_re_i reads position ext_ridx_i (of the other group with ext_rother_i) and returns
//   it times 2^ext_rexp_i (the inverse scalings 2^-L, P^-1, (A^n P)^-1 are powers of two,
//   except the sqrt 2 factor of odd n at c = 1/2, which the caller applies) on ext_rdata_o two
//   cycles later, with ext_rvalid_o.
//   Stream port (STREAM = 1): a run started with stream_i presents its last stage's outputs as
//   pairs (st_lo_o, st_hi_o) = (x_k, x_k+D/2), k = st_idx_o = 0, 1, .., D/2 - 1, one per cycle
//   with st_valid_o (they are also written as usual).
// Ranges: entries in [0, q); any exponent word; 1 <= jn_i, j0_i + jn_i <= L.
// Left out: stalling; a second external port (one sample per cycle each way); streaming the
//   sqrt 2 block's stage (the inverses, which stream, do not use it).
// Schedule (B = BFLY_LAT + RD_LAT + SW_LAT): start_i is taken while busy_o is low; stage s of
//   the run issues cycle c = 0..S-1 in cycle 1 + s PER + c, PER = max(S, S/2 + B + 2); the
//   data reach the butterflies 1 + RD_LAT cycles later.
//   ORDER 0: cycle c reads address c of every bank; butterfly k = LANES c + l (lane l) takes
//   banks 2l, 2l+1. Its lower output x_k is written B + 1 cycles after the issue, its upper
//   output x_k+D/2 one cycle later: the channel switch (outputs of c and c - 1 share no bank,
//   since c and c - 1 differ in parity). The run's last write is in cycle
//   (jn - 1) PER + S + B + 2.
//   ORDER 1: cycle c runs butterflies k = c + l S; x_2k, x_2k+1 sit at addresses 2c mod S and
//   2c + 1 mod S of banks 2l, 2l+1 (c < S/2) or 2l+1, 2l+2 (c >= S/2); all 2 LANES outputs go
//   to address c, B + 1 cycles after the issue (the channel switch is a bank rotation by c
//   mod 2, with no delayed channel). The last write is in cycle
//   (jn - 1) PER + S + B + 1.
//   SQRT2: a nega-cyclic run whose last stage is J = 1 takes that stage's butterflies through
//   the supplemental block, 2 cycles more: its writes, and done_o, come 2 cycles later. The
//   previous stage's last write (S + B - ORDER + 1 after its start) precedes them, since
//   PER >= S.
//   STREAM: pair k comes in the cycle of lane 0's write of issue k (k < S); LANES > 1: the
//   other lanes' pairs k = l S + a are read back at address a from lane 0's pair S - 2 on
//   (a word written in the cycle of its read is taken from the write port) and registered,
//   one per cycle right after lane 0's,
//   so pair k is in cycle (jn - 1) PER + B + 2 + k, and the run's end (busy_o, done_o) waits
//   for the last pair, (jn - 1) PER + D/2 + B + 1.
//   PER is the shortest period at which stage s + 1 reads nothing before stage s has written
//   it (both orders). done_o is high in the cycle after the last write; busy_o is high from
//   the cycle after start_i up to the last write. swap_i takes effect at the clock edge
//   (ignored while busy_o or with start_i).
//   Racing (PINGPONG = 0): a stage overwrites a position before reading its old word exactly
//   when B + 2 - ORDER < S/2 (an ISM3 Sec. IV-E "racing"). race_o then goes high and stays
//   high until reset; with PINGPONG = 1 no write lands in the group being read.
`default_nettype none

module fermat_ntt #(
  parameter integer K          = 32,
  parameter integer D          = 32,
  parameter integer LANES      = 4,
  parameter integer BFLY_LAT   = 2,
  parameter integer GROUPS     = 1,
  parameter integer PINGPONG   = 0,
  parameter integer ORDER      = 0,
  parameter integer OMEGA_LOG2 = 2,
  parameter integer A_LOG2     = 0,
  parameter integer SQRT2      = 0,
  parameter integer RD_LAT     = 0,
  parameter integer SW_LAT     = 0,
  parameter integer STREAM     = 0
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire                 start_i,
  input  wire                 sign_i,
  input  wire                 nega_i,
  input  wire [LW-1:0]        j0_i,
  input  wire [LW-1:0]        jn_i,
  output wire                 busy_o,
  output wire                 done_o,
  output wire                 race_o,
  output wire                 grp_o,
  input  wire                 ext_we_i,
  input  wire [L-1:0]         ext_widx_i,
  input  wire                 ext_bitrev_i,
  input  wire                 ext_wother_i,
  input  wire                 swap_i,
  input  wire [K:0]           ext_wdata_i,
  input  wire                 ext_re_i,
  input  wire [L-1:0]         ext_ridx_i,
  input  wire [EW-1:0]        ext_rexp_i,
  input  wire                 ext_rother_i,
  output wire                 ext_rvalid_o,
  output wire [K:0]           ext_rdata_o,
  input  wire                 stream_i,
  output wire                 st_valid_o,
  output wire [L-2:0]         st_idx_o,
  output wire [K:0]           st_lo_o,
  output wire [K:0]           st_hi_o
);
  localparam integer L     = $clog2(D);          // stages
  localparam integer LW    = $clog2(L + 1);      // stage-count bits
  localparam integer EW    = $clog2(2 * K);      // exponent bits
  localparam integer NB    = 2 * LANES;          // banks
  localparam integer LB    = $clog2(NB);
  localparam integer S     = D / NB;             // issue cycles (addresses) per stage
  localparam integer AB    = $clog2(S);
  localparam integer BT    = BFLY_LAT + RD_LAT + SW_LAT;  // issue to write, less 1
  localparam integer RAW_GAP = S / 2 + BT + 2;
  localparam integer PER   = (S > RAW_GAP) ? S : RAW_GAP;
  localparam integer LAST  = S + BT + 1 - ORDER;         // a run's last write, in its stage
  localparam integer LASTS = D / 2 + BT;                 // STREAM: the last pair streamed
  localparam integer SUPP  = (SQRT2 != 0) ? 2 : 0;       // the supplemental block's ranks
  localparam integer TW0   = (PER > LAST + SUPP ? PER : LAST + SUPP) + 1;
  localparam integer TW    = (STREAM != 0 && LASTS + 1 > TW0) ? LASTS + 1 : TW0;
  localparam integer TB    = $clog2(TW + 1);
  localparam integer GB    = (GROUPS == 2) ? 1 : 0;     // group address bit
  localparam integer PP    = (PINGPONG != 0) ? 1 : 0;  // stages alternate groups
  localparam integer RAW   = AB + GB;             // RAM address bits (group, address)
  localparam integer TAGW  = AB + 3;              // c, write group, stage parity, streamed

  genvar l, b;
  generate
    if (K < 2 || D < 4 * LANES || (1 << L) != D || LANES < 1 || (1 << LB) != NB ||
        BFLY_LAT < 1 || PINGPONG < 0 || PINGPONG > 1 || GROUPS < 1 || GROUPS > 2 ||
        RD_LAT < 0 || SW_LAT < 0 || SQRT2 < 0 || SQRT2 > 1 ||
        (SQRT2 == 1 && (2 * K != D || OMEGA_LOG2 != 1 || A_LOG2 != 0 || D < 16)) ||
        ORDER < 0 || ORDER > 1 || STREAM < 0 || STREAM > 1 ||
        (STREAM == 1 && (ORDER != 1 || PINGPONG != 1)) ||
        (PINGPONG == 1 && GROUPS != 2) || OMEGA_LOG2 * D != 2 * K ||
        (A_LOG2 != 0 && A_LOG2 * 2 * D != 2 * K)) begin : g_illegal
      fermat_ntt_illegal_parameters u_stop ();
    end
  endgenerate

  // --- control ---------------------------------------------------------------------------------
  reg          busy_q, done_q, grp_q, rgrp_q, par_q, sign_q, nega_q;
  reg [LW-1:0] j_q, left_q;
  reg [TB-1:0] t_q;

  wire [31:0] t32   = {{(32-TB){1'b0}}, t_q};
  wire        issue = busy_q && (t32 < S);
  wire        last  = (left_q == {{(LW-1){1'b0}}, 1'b1});
  wire        next_stage = busy_q && !last && (t32 == PER - 1);
  // SQRT2: the last stage of a nega-cyclic run ends at J = 1 (stage L - 1) in the supplemental
  // block, 2 cycles later.
  wire        supp_run   = (SQRT2 != 0) && nega_q && (j_q == L[LW-1:0] - 1'b1);
  // STREAM: a run with stream_i streams its last stage's pairs, the last LASTS after the stage.
  reg         stream_q;
  wire [31:0] last_t     = (stream_q ? LASTS : LAST) + (supp_run ? SUPP : 0);
  wire        finish     = busy_q && last && (t32 == last_t);

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      done_q <= 1'b0;
      grp_q  <= 1'b0;
      rgrp_q <= 1'b0;
      par_q  <= 1'b0;
      sign_q <= 1'b0;
      nega_q <= 1'b0;
      stream_q <= 1'b0;
      j_q    <= {LW{1'b0}};
      left_q <= {LW{1'b0}};
      t_q    <= {TB{1'b0}};
    end else begin
      done_q <= finish;
      if (!busy_q) begin
        if (swap_i && !start_i) grp_q <= grp_q ^ GB[0];
        if (start_i) begin
          busy_q <= 1'b1;
          j_q    <= j0_i;
          left_q <= jn_i;
          t_q    <= {TB{1'b0}};
          rgrp_q <= grp_q;
          par_q  <= 1'b0;
          sign_q <= sign_i;
          nega_q <= nega_i;
          stream_q <= (STREAM != 0) && stream_i;
        end
      end else if (next_stage) begin
        j_q    <= j_q + 1'b1;
        left_q <= left_q - 1'b1;
        t_q    <= {TB{1'b0}};
        rgrp_q <= rgrp_q ^ PP[0];
        par_q  <= ~par_q;
      end else if (finish) begin
        busy_q <= 1'b0;
        grp_q  <= rgrp_q ^ PP[0];
      end else begin
        t_q <= t_q + 1'b1;
      end
    end
  end

  assign busy_o = busy_q;
  assign done_o = done_q;
  assign grp_o  = grp_q;

  // --- issue: the address, the twiddle exponents and the tag -------------------------------------
  wire [AB-1:0] c = t_q[AB-1:0];
  wire [31:0]   jj = {{(32-LW){1'b0}}, j_q};
  wire [31:0]   jsh = L - 1 - jj;                        // lg J
  wire [31:0]   bigj = 32'd1 << jsh;
  // Per lane the twiddle exponent e; SQRT2 also e + 3D/8 and e + D/8 (mod 2K), the sqrt 2
  // block's shifts, so that no exponent arithmetic precedes its shifters.
  localparam integer XW = (SQRT2 != 0) ? 3 * EW : EW;
  wire [XW*LANES-1:0] exps;
  for (l = 0; l < LANES; l = l + 1) begin : g_exp
    wire [31:0] c32  = {{(32-AB){1'b0}}, c};
    wire [31:0] k    = (ORDER == 0) ? c32 * LANES + l : c32 + l * S;   // butterfly index
    wire [31:0] base = (k >> jsh) << jsh;
    wire [31:0] eg;                                       // < K: g D = 2K, base < D/2
    const_mul #(.C(OMEGA_LOG2), .W(32)) u_eg (.x_i(base), .y_o(eg));
    wire [31:0] e1   = (sign_q && eg != 0) ? 2 * K - eg : eg;
    // The nega-cyclic part A^J = 2^(a J); SQRT2: 2^(J/2), and for J = 1 the supplemental
    // block's factor sqrt 2 (its shifts are added there).
    wire [31:0] an   = (SQRT2 != 0) ? (bigj >> 1) : (A_LOG2 << jsh);
    wire [31:0] e2   = e1 + (nega_q ? an : 32'd0);
    wire [31:0] e3   = (e2 >= 2 * K) ? e2 - 2 * K : e2;
    if (SQRT2 != 0) begin : g_sx
      wire [31:0] ea = (e3 + 3 * D / 8 >= 2 * K) ? e3 + 3 * D / 8 - 2 * K : e3 + 3 * D / 8;
      wire [31:0] eb = (e3 + D / 8 >= 2 * K) ? e3 + D / 8 - 2 * K : e3 + D / 8;
      assign exps[l*XW +: XW] = {eb[EW-1:0], ea[EW-1:0], e3[EW-1:0]};
      wire unused_x = ^{ea[31:EW], eb[31:EW]};
    end else begin : g_nx
      assign exps[l*XW +: XW] = e3[EW-1:0];
    end
    wire unused_e3 = ^e3[31:EW];
  end
  wire sup_iss = (SQRT2 != 0) && nega_q && (jsh == 0);   // this issue takes the sqrt 2 path

  // Aligned with the RAM output (and RD_LAT ranks later, with the butterflies' operands):
  // valid, exponents, the sqrt 2 flag, tag {c, write group, stage parity}.
  wire                v1;
  wire [XW*LANES-1:0] exps1;
  wire [TAGW-1:0]     tag1;
  wire                sup1;
  delay_line #(.W(1), .N(1 + RD_LAT), .RST(1)) u_v1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(issue), .q_o(v1)
  );
  delay_line #(.W(XW * LANES + TAGW + 1), .N(1 + RD_LAT)) u_t1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({exps, c, rgrp_q ^ PP[0], par_q, stream_q && last,
                                          sup_iss}),
    .q_o({exps1, tag1, sup1})
  );

  // --- the banks -------------------------------------------------------------------------------
  wire [K:0]     rdata [0:NB-1];
  wire           bwe   [0:NB-1];
  wire [RAW-1:0] bwa   [0:NB-1];
  wire [K:0]     bwd   [0:NB-1];

  // External port: position p = (bitrev ? bitrev(idx) : idx) of the current group.
  wire [L-1:0] widx_rev;
  for (b = 0; b < L; b = b + 1) begin : g_rev
    assign widx_rev[b] = ext_widx_i[L-1-b];
  end
  wire [L-1:0]   wpos  = ext_bitrev_i ? widx_rev : ext_widx_i;
  wire           ext_w = ext_we_i && !busy_q;
  wire           ext_r = ext_re_i && !busy_q;
  // Position p -> (bank, address). ORDER 0: bank p mod 2 LANES, address p / (2 LANES).
  // ORDER 1: a = p mod S, m = p / S; bank (m + a mod 2) mod 2 LANES, address a.
  wire [LB-1:0] wbank, rbank;
  wire [AB-1:0] waddr, raddr;
  if (ORDER == 0) begin : g_map0
    assign wbank = wpos[LB-1:0];
    assign waddr = wpos[L-1:LB];
    assign rbank = ext_ridx_i[LB-1:0];
    assign raddr = ext_ridx_i[L-1:LB];
  end else begin : g_map1
    assign wbank = wpos[L-1:AB] + {{(LB-1){1'b0}}, wpos[0]};
    assign waddr = wpos[AB-1:0];
    assign rbank = ext_ridx_i[L-1:AB] + {{(LB-1){1'b0}}, ext_ridx_i[0]};
    assign raddr = ext_ridx_i[AB-1:0];
  end
  wire [RAW-1:0] ext_wa, ext_ra;
  if (GB != 0) begin : g_ga
    assign ext_wa = {grp_q ^ ext_wother_i, waddr};
    assign ext_ra = {grp_q ^ ext_rother_i, raddr};
  end else begin : g_gn
    assign ext_wa = waddr;
    wire unused_groups = ^{ext_wother_i, swap_i, ext_rother_i};
    assign ext_ra = raddr;
  end

  // Issue addresses. ORDER 0: address c of every bank. ORDER 1: cycle c reads x_2n, x_2n+1 of
  // butterflies n = c + l S: addresses 2c mod S and 2c + 1 mod S, the odd banks the second
  // one in the first half of the stage (c < S/2) and the first one in the second half.
  wire           drd;        // STREAM: a read of the drain (below) in this cycle
  wire [RAW-1:0] drain_ra;
  wire [AB-1:0] base2 = c << 1;
  wire          hf    = c[AB-1];
  for (b = 0; b < NB; b = b + 1) begin : g_bank
    wire [AB-1:0] ia = (ORDER == 0) ? c : base2 + {{(AB-1){1'b0}}, b[0] ^ hf};
    wire [RAW-1:0] iss_ra;
    if (GB != 0) begin : g_ig
      assign iss_ra = {rgrp_q, ia};
    end else begin : g_in
      assign iss_ra = ia;
    end
    wire ld = ext_w && (wbank == b);
    sdp_ram #(.W(K + 1), .DEPTH(S << GB), .AW(RAW)) u_ram (
      .clk_i(clk_i),
      .we_i(bwe[b]), .waddr_i(bwa[b]), .wdata_i(bwd[b]),
      .raddr_i(drd ? drain_ra : (busy_q ? iss_ra : ext_ra)), .rdata_o(rdata[b]),
      .ld_we_i(ld), .ld_addr_i(ext_wa), .ld_data_i(ext_wdata_i)
    );
  end

  // External read: bank select and exponent beside the RAM read, then the scaling shift.
  wire          rv1;
  wire [LB-1:0] rbank1;
  wire [EW-1:0] rexp1;
  delay_line #(.W(1), .N(1), .RST(1)) u_rv1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(ext_r), .q_o(rv1)
  );
  delay_line #(.W(LB + EW), .N(1)) u_rsel (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({rbank, ext_rexp_i}), .q_o({rbank1, rexp1})
  );
  wire [K:0] rword = rdata[rbank1];
  wire [K:0] rscaled;
  fermat_shift #(.K(K), .EW(EW)) u_rscale (.x_i(rword), .e_i(rexp1), .y_o(rscaled));
  delay_line #(.W(1), .N(1), .RST(1)) u_rv2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(rv1), .q_o(ext_rvalid_o)
  );
  delay_line #(.W(K + 1), .N(1)) u_rd2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(rscaled), .q_o(ext_rdata_o)
  );

  // --- butterflies ------------------------------------------------------------------------------
  // The RAM words, RD_LAT ranks later (FMLM3: the third read/write cycle).
  wire [(K+1)*NB-1:0] rflat, rflat1;
  for (b = 0; b < NB; b = b + 1) begin : g_rflat
    assign rflat[b*(K+1) +: K+1] = rdata[b];
  end
  delay_line #(.W((K + 1) * NB), .N(RD_LAT)) u_rd (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(rflat), .q_o(rflat1)
  );
  wire [LANES-1:0]      bv0;
  wire [TAGW-1:0]       btag0 [0:LANES-1];
  wire [K:0]            bs0   [0:LANES-1];
  wire [K:0]            bd0   [0:LANES-1];
  wire hf1 = (ORDER != 0) && tag1[TAGW-1];   // ORDER 1: the issue was in the second half
  for (l = 0; l < LANES; l = l + 1) begin : g_bfly
    // ORDER 1, second half: x_2n in bank 2l + 1, x_2n+1 in bank 2l + 2 (mod 2 LANES).
    wire [K:0] ra = rflat1[(2*l)*(K+1) +: K+1];
    wire [K:0] rb = rflat1[(2*l+1)*(K+1) +: K+1];
    wire [K:0] rc = rflat1[((2*l+2) % NB)*(K+1) +: K+1];
    wire [K:0] ba = hf1 ? rb : ra;
    wire [K:0] bb = hf1 ? rc : rb;
    wire [EW-1:0] be = exps1[l*XW +: EW];
    wire          fv;
    wire [TAGW-1:0] ftag;
    wire [K:0]    fa, fb;
    wire [EW-1:0] fe;
    if (SQRT2 != 0) begin : g_supp
      // Supplemental block (FMLM3 Fig. 4, eq. (23)): b 2^e sqrt 2 = b 2^(e + 3D/8) - b 2^(e + D/8)
      // in two ranks (the shifts, then the difference); the butterfly then shifts by 0. Other
      // stages bypass it; the two paths never carry a pair in the same cycle.
      wire [EW-1:0] ea = exps1[l*XW + EW +: EW];       // e + 3D/8
      wire [EW-1:0] eb = exps1[l*XW + 2 * EW +: EW];   // e + D/8
      wire [K:0] ta, tb;
      fermat_shift #(.K(K), .EW(EW)) u_sa (.x_i(bb), .e_i(ea), .y_o(ta));
      fermat_shift #(.K(K), .EW(EW)) u_sb (.x_i(bb), .e_i(eb), .y_o(tb));
      wire          sv1, sv2;
      wire [TAGW-1:0] stag1, stag2;
      wire [K:0]    sa1, sta1, stb1, sa2, sd;
      delay_line #(.W(1), .N(1), .RST(1)) u_sv1 (
        .clk_i(clk_i), .rst_ni(rst_ni), .d_i(v1 && sup1), .q_o(sv1)
      );
      delay_line #(.W(TAGW + 3 * (K + 1)), .N(1)) u_sd1 (
        .clk_i(clk_i), .rst_ni(rst_ni), .d_i({tag1, ba, ta, tb}), .q_o({stag1, sa1, sta1, stb1})
      );
      wire [K:0] unused_sum;
      fermat_addsub #(.K(K)) u_sdiff (.a_i(sta1), .b_i(stb1), .s_o(unused_sum), .d_o(sd));
      delay_line #(.W(1), .N(1), .RST(1)) u_sv2 (
        .clk_i(clk_i), .rst_ni(rst_ni), .d_i(sv1), .q_o(sv2)
      );
      wire [K:0] sb2;
      delay_line #(.W(TAGW + 2 * (K + 1)), .N(1)) u_sd2 (
        .clk_i(clk_i), .rst_ni(rst_ni), .d_i({stag1, sa1, sd}), .q_o({stag2, sa2, sb2})
      );
      assign fv   = sv2 || (v1 && !sup1);
      assign ftag = sv2 ? stag2 : tag1;
      assign fa   = sv2 ? sa2 : ba;
      assign fb   = sv2 ? sb2 : bb;
      assign fe   = sv2 ? {EW{1'b0}} : be;
      wire unused_s = ^unused_sum;
    end else begin : g_nosupp
      assign fv   = v1;
      assign ftag = tag1;
      assign fa   = ba;
      assign fb   = bb;
      assign fe   = be;
      wire unused_sup = sup1;
    end
    fermat_bfly #(.K(K), .EW(EW), .TW(TAGW), .LATENCY(BFLY_LAT)) u_bfly (
      .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(fv), .tag_i(ftag),
      .a_i(fa), .b_i(fb), .e_i(fe),
      .valid_o(bv0[l]), .tag_o(btag0[l]), .s_o(bs0[l]), .d_o(bd0[l])
    );
  end

  // The channel switch's SW_LAT ranks (FMLM3: 2) on the butterflies' outputs.
  wire [LANES-1:0]      bv;
  wire [TAGW-1:0]       btag [0:LANES-1];
  wire [K:0]            bs   [0:LANES-1];
  wire [K:0]            bd   [0:LANES-1];
  for (l = 0; l < LANES; l = l + 1) begin : g_sw
    delay_line #(.W(1), .N(SW_LAT), .RST(1)) u_swv (
      .clk_i(clk_i), .rst_ni(rst_ni), .d_i(bv0[l]), .q_o(bv[l])
    );
    delay_line #(.W(TAGW + 2 * (K + 1)), .N(SW_LAT)) u_swd (
      .clk_i(clk_i), .rst_ni(rst_ni), .d_i({btag0[l], bs0[l], bd0[l]}),
      .q_o({btag[l], bs[l], bd[l]})
    );
  end

  // --- channel switch and write-back -------------------------------------------------------------
  // Lower outputs of issue c go now, upper ones a cycle later (register rank below).
  wire            lv   = bv[0];   // every lane carries the same valid and tag
  wire unused_lanes = ^{bv, btag[LANES-1]};
  wire [AB-1:0]   lc   = btag[0][TAGW-1:3];
  wire            lgrp = btag[0][2];
  wire            lpar = btag[0][1];
  wire            lfin = btag[0][0];     // the last stage of a streaming run
  reg             uv_q;
  reg  [AB-1:0]   uc_q;
  reg             ugrp_q, upar_q;
  reg  [K:0]      ud_q [0:LANES-1];
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) uv_q <= 1'b0;
    else uv_q <= lv;
  end
  always @(posedge clk_i) begin
    uc_q   <= lc;
    ugrp_q <= lgrp;
    upar_q <= lpar;
  end
  for (l = 0; l < LANES; l = l + 1) begin : g_up
    always @(posedge clk_i) ud_q[l] <= bd[l];
  end

  // ORDER 0, bank LANES h + l: the lower output of lane l when c is of parity h, else the
  // delayed upper. ORDER 1: every output now at address c, lane l's x_n in bank l + c mod 2
  // and its x_n+D/2 in bank l + LANES + c mod 2 (mod 2 LANES).
  localparam [31:0] HALF32 = S / 2;
  wire [AB-1:0] half = HALF32[AB-1:0];
  wire [NB-1:0] low_hits;   // bank b takes an output of this cycle
  wire [L-1:0]  wposs [0:NB-1];
  for (b = 0; b < NB; b = b + 1) begin : g_wb
    localparam integer H = b / LANES;
    localparam integer LN = b % LANES;
    wire          low_hit, up_hit;
    wire [AB-1:0] wa;
    wire          wg;
    wire [K:0]    wd;
    if (ORDER == 0) begin : g_o0
      assign low_hit = lv && (lc[0] == H[0]);
      assign up_hit  = uv_q && (uc_q[0] == H[0]);
      wire [AB-1:0] la = lc >> 1;
      wire [AB-1:0] ua = half + (uc_q >> 1);
      assign wa = low_hit ? la : ua;
      assign wg = low_hit ? lgrp : ugrp_q;
      assign wd = low_hit ? bs[LN] : ud_q[LN];
    end else begin : g_o1
      wire [LB-1:0] r   = b[LB-1:0] - {{(LB-1){1'b0}}, lc[0]};   // output slot of this bank
      wire [31:0]   r32 = {{(32-LB){1'b0}}, r};
      wire [K:0]    lo_w = bs[r32 % LANES];
      wire [K:0]    up_w = bd[r32 % LANES];
      assign low_hit = lv;
      assign up_hit  = 1'b0;
      assign wa = lc;
      assign wg = lgrp;
      assign wd = (r32 < LANES) ? lo_w : up_w;
      wire unused_o1 = ^{uv_q, uc_q, ugrp_q, half, ud_q[LN]};
    end
    assign bwe[b] = low_hit || up_hit;
    assign low_hits[b] = low_hit;
    assign bwd[b] = wd;
    // The position written: ORDER 0 {address, bank}; ORDER 1 {bank - a mod 2, address}.
    wire [LB-1:0] wm = b[LB-1:0] - {{(LB-1){1'b0}}, wa[0]};
    assign wposs[b] = (ORDER == 0) ? {wa, b[LB-1:0]} : {wm, wa};
    if (GB != 0) begin : g_wga
      assign bwa[b] = {wg, wa};
    end else begin : g_wgn
      assign bwa[b] = wa;
      wire unused_wg = wg;
    end
  end

  // --- STREAM: the last stage's pairs (x_k, x_k+D/2), k = 0 .. D/2 - 1, one per cycle ----------
  // Lane 0's outputs as they are written (k = c < S); LANES > 1: then the other lanes' words,
  // read back from the group just written (k = l S + a: address a, x_k in bank l + a mod 2,
  // x_k+D/2 in bank l + LANES + a mod 2; the issue has ended).
  if (STREAM != 0) begin : g_stream
    wire          dv;
    wire [L-2:0]  dk;
    wire [K:0]    dlo, dhi;
    if (LANES > 1) begin : g_drain
      // The reads start at lane 0's pair S - 2 and the words are registered after the bank
      // select, so pair S follows pair S - 1 with no RAM-to-consumer path; S = 2 alone reads a
      // word in the cycle of its write, and takes it from the write port (bypass).
      localparam [31:0]  HK32 = D / 2 - 1;
      localparam [31:0]  S2   = S - 2;
      localparam [L-2:0] SK = S[L-2:0];
      localparam [L-2:0] HK = HK32[L-2:0];
      wire          go = lv && lfin && (lc == S2[AB-1:0]);
      reg           dr_q, dv1_q, dv2_q, dg_q;
      reg  [L-2:0]  dk_q, dk1_q, dk2_q;
      reg  [K:0]    dlo_q, dhi_q;
      wire [L-2:0]  k_rd = go ? SK : dk_q;
      assign drd      = go || dr_q;
      assign drain_ra = {go ? lgrp : dg_q, k_rd[AB-1:0]};
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          dr_q  <= 1'b0;
          dv1_q <= 1'b0;
          dv2_q <= 1'b0;
        end else begin
          dv1_q <= drd;
          dv2_q <= dv1_q;
          if (go) dr_q <= 1'b1;
          else if (dr_q && dk_q == HK) dr_q <= 1'b0;
        end
      end
      wire [(K+1)*NB-1:0] words;
      for (b = 0; b < NB; b = b + 1) begin : g_byp
        if (S == 2) begin : g_s2   // only then is a word read in the cycle of its write
          reg           byp_q;
          reg  [K:0]    bypd_q;
          always @(posedge clk_i) begin
            byp_q  <= drd && bwe[b] && (bwa[b] == drain_ra);
            bypd_q <= bwd[b];
          end
          assign words[b*(K+1) +: K+1] = byp_q ? bypd_q : rdata[b];
        end else begin : g_sn
          assign words[b*(K+1) +: K+1] = rdata[b];
        end
      end
      wire [LB-1:0] bl = {1'b0, dk1_q[L-2:AB]} + {{(LB-1){1'b0}}, dk1_q[0]};
      wire [LB-1:0] bh = bl + LANES[LB-1:0];
      always @(posedge clk_i) begin
        dk1_q <= k_rd;
        dk2_q <= dk1_q;
        dlo_q <= words[bl*(K+1) +: K+1];
        dhi_q <= words[bh*(K+1) +: K+1];
        if (go) begin
          dk_q <= SK + 1'b1;
          dg_q <= lgrp;
        end else if (dr_q) begin
          dk_q <= dk_q + 1'b1;
        end
      end
      assign dv  = dv2_q;
      assign dk  = dk2_q;
      assign dlo = dlo_q;
      assign dhi = dhi_q;
    end else begin : g_nodrain
      assign drd = 1'b0;
      assign drain_ra = {RAW{1'b0}};
      assign dv  = 1'b0;
      assign dk  = {(L-1){1'b0}};
      assign dlo = {(K+1){1'b0}};
      assign dhi = {(K+1){1'b0}};
    end
    wire [31:0]  lc32 = {{(32-AB){1'b0}}, lc};
    wire [L-2:0] lk = lc32[L-2:0];
    assign st_valid_o = (lv && lfin) || dv;
    assign st_idx_o   = dv ? dk : lk;
    assign st_lo_o    = dv ? dlo : bs[0];
    assign st_hi_o    = dv ? dhi : bd[0];
    wire unused_st = ^{stream_i, lc32[31:L-1]};
  end else begin : g_nostream
    assign drd = 1'b0;
    assign drain_ra = {RAW{1'b0}};
    assign st_valid_o = 1'b0;
    assign st_idx_o   = {(L-1){1'b0}};
    assign st_lo_o    = {(K+1){1'b0}};
    assign st_hi_o    = {(K+1){1'b0}};
    wire unused_st = ^{stream_i, lfin};
  end

  // --- racing check (PINGPONG = 0) ---------------------------------------------------------------
  // pend_q[s][p]: position p not yet read by the stage of parity s in this run. A write of that
  // stage to such a position overwrites a word the stage still needs.
  reg race_q;
  if (PINGPONG == 0) begin : g_race
    reg  [D-1:0]  pend_q [0:1];
    wire [31:0]   c32 = {{(32-AB){1'b0}}, c};
    // Positions read in this cycle. ORDER 0: 2 LANES consecutive ones at c 2 LANES. ORDER 1:
    // m S + 2c mod S and the next, for m = hf, hf + 2, ...: a constant pattern (two ones at
    // every 2S) shifted by hf S + 2c mod S.
    wire [D-1:0] pat;
    for (b = 0; b < D; b = b + 1) begin : g_pat
      assign pat[b] = (ORDER == 0) ? (b < NB) : ((b % (2 * S)) < 2);
    end
    wire [31:0]  rsh = (ORDER == 0) ? c32 * NB
                     : {31'd0, hf} * S + {{(32-AB){1'b0}}, base2};
    wire [D-1:0] rd_mask = pat << rsh;
    wire [NB-1:0] hit;
    for (b = 0; b < NB; b = b + 1) begin : g_hit
      wire          par = low_hits[b] ? lpar : upar_q;
      wire [L-1:0]  pos = wposs[b];
      // A read in the cycle of the write gets the old word (read first): not a race.
      wire [D-1:0]  pv  = pend_q[par] & ~((issue && par == par_q) ? rd_mask : {D{1'b0}});
      assign hit[b] = bwe[b] && pv[pos];
    end
    always @(posedge clk_i) begin
      if (issue) begin
        if (t_q == {TB{1'b0}}) pend_q[par_q] <= ~rd_mask;
        else pend_q[par_q] <= pend_q[par_q] & ~rd_mask;
      end
    end
    always @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) race_q <= 1'b0;
      else if (|hit) race_q <= 1'b1;
    end
  end else begin : g_norace
    wire unused_par = ^{lpar, upar_q, low_hits, wposs[0]};
    always @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) race_q <= 1'b0;
    end
  end
  assign race_o = race_q;

endmodule
