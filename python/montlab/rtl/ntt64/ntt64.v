// ntt64: Montgomery multiplication with NTT products over p = 2^64 - 2^32 + 1 (the NTT paper's
//   multiplier), on one transform pass engine, one carry-resolution unit and two bank sets.
//
// Citation: the NTT paper, Algorithm 1 (corrected, SPEC 4.3) and Sec. IV (Figs. 2-3); model
//   montlab.ref.ntt64 with fixed_r = 1 (R = 2^(B S^2/2)); dataflow montlab.hw.ntt64_schedule.
// Parameters: S side (8, 16, 32: S^2 points, S^2/2 samples of B bits, L = S/4 lanes); B digit
//   bits (the dynamic range S^2/2 (2^B - 1)^2 < p: B <= 29, 28, 27; the carry unit's chunk:
//   B >= 6, 3, 2 at S = 8, 16, 32; other values stop elaboration); STAGES, BASE_LAT, LEVEL_LAT
//   as ntt64_pass; CSA_STAGES, SEG as ntt64_carry.
// Function: with X, Y < M < R loaded as samples, FFT(M), FFT(M') as spectra (the forward
//   transform's transposed order) and M as digits, the read port returns z = X Y R^-1 mod M in
//   [0, M) as 2S chunks of L digits. Steps (ntt64_schedule.PASSES): FFT(X) in A; FFT(Y) in
//   B, times FFT(X); IFFT; carries: T's digits kept, t = T mod R as samples in A; FFT(t) times
//   FFT(M'); IFFT; carries: u = U mod R in A; FFT(u) times FFT(M); IFFT; carries of W + T
//   (T's digits added to W's coefficients): c = C / R and d = c - M chunk by chunk; z = d when
//   c >= M, else c.
// Ranges: samples and digits < 2^B; spectra < p. Inputs X, Y < M, M odd, M < R.
// Left out: squaring shortcuts, reuse of FFT(X) across products, overlapping passes.
// Load (before start_i): <p>_we_i, <p>_addr_i, <p>_data_i for p = a (X), b (Y), fm (FFT(M)),
//   fmp (FFT(M')) at address {bank, word} (sample (r, c) in bank (r + c) mod S, word r), and m
//   (M's chunk m_addr_i < 2S, L digits).
// Schedule: start_i at edge 0; 17 steps back to back (ntt64_schedule.product_cycles): a
//   transform pass takes pass_cycles + 2 edges (the step's go register, the pass's start edge),
//   a carry pass 4S + LATENCY + 4 (4S chunks and one zero chunk that flushes the top, the read,
//   the carry unit's LATENCY, the write and the hand-over); done_o is high for one cycle after
//   the last. Read port: rd_re_i with chunk
//   rd_addr_i < 2S gives rd_valid_o and rd_data_o one cycle later.
`default_nettype none

module ntt64 #(
  parameter integer S          = 8,
  parameter integer B          = 8,
  parameter integer STAGES     = 1,
  parameter integer BASE_LAT   = 3,
  parameter integer LEVEL_LAT  = 4,
  parameter integer CSA_STAGES = 1,
  parameter integer SEG        = 16
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  input  wire                   start_i,
  output reg                    busy_o,
  output reg                    done_o,
  input  wire                   a_we_i,
  input  wire [2*$clog2(S)-1:0] a_addr_i,
  input  wire [63:0]            a_data_i,
  input  wire                   b_we_i,
  input  wire [2*$clog2(S)-1:0] b_addr_i,
  input  wire [63:0]            b_data_i,
  input  wire                   fm_we_i,
  input  wire [2*$clog2(S)-1:0] fm_addr_i,
  input  wire [63:0]            fm_data_i,
  input  wire                   fmp_we_i,
  input  wire [2*$clog2(S)-1:0] fmp_addr_i,
  input  wire [63:0]            fmp_data_i,
  input  wire                   m_we_i,
  input  wire [$clog2(S):0]     m_addr_i,
  input  wire [S*B/4-1:0]       m_data_i,
  input  wire                   rd_re_i,
  input  wire [$clog2(S):0]     rd_addr_i,
  output reg                    rd_valid_o,
  output wire [S*B/4-1:0]       rd_data_o
);
  localparam integer AW = $clog2(S);
  localparam integer L = S / 4;
  localparam integer CB = L * B;  // bits of a chunk of digits
  localparam integer KW = AW + 2;  // chunk index bits (4S chunks)
  localparam [4:0] LAST_STEP = 5'd16;
  // Every coefficient (plus a digit of T) is below 2^CW by the dynamic range, S^2/2 (2^B - 1)^2
  // + 2^B < 2^(2B + 2 lg S) (CW <= 64): the carry unit takes those bits in R = ceil(CW/B)
  // blocks, and needs its chunk of L = S/4 digits to hold R - 1 of them.
  localparam integer CW = 2 * B + 2 * AW;

  genvar b, l;
  generate
    // the dynamic range S^2/2 (2^B - 1)^2 < p: B <= 29, 28, 27 at S = 8, 16, 32 (SPEC 4.2);
    // the carry unit's L >= R - 1: B >= 6, 3, 2
    if (!(S == 8 || S == 16 || S == 32) || B < ((S == 8) ? 6 : (S == 16) ? 3 : 2) ||
        B > ((S == 8) ? 29 : (S == 16) ? 28 : 27))
    begin : g_illegal
      ntt64_illegal_parameters u_stop ();
    end
  endgenerate

  // --- the step program: {carry?, set (0 A, 1 B), row, inv, op, operand (0 A, 1 FM', 2 FM)} --
  reg  [4:0] step;
  reg  [7:0] prog;
  always @(*) begin
    case (step)
      5'd0:  prog = {1'b0, 1'b0, 1'b0, 1'b0, 2'd1, 2'd0};  // FFT(X): COL, twiddles (A)
      5'd1:  prog = {1'b0, 1'b0, 1'b1, 1'b0, 2'd0, 2'd0};  //         ROW
      5'd2:  prog = {1'b0, 1'b1, 1'b0, 1'b0, 2'd1, 2'd0};  // FFT(Y): COL, twiddles (B)
      5'd3:  prog = {1'b0, 1'b1, 1'b1, 1'b0, 2'd2, 2'd0};  //         ROW, times FFT(X) in A
      5'd4:  prog = {1'b0, 1'b1, 1'b1, 1'b1, 2'd1, 2'd0};  // IFFT(T): ROW, twiddles / S^2
      5'd5:  prog = {1'b0, 1'b1, 1'b0, 1'b1, 2'd0, 2'd0};  //          COL
      5'd6:  prog = {1'b1, 1'b1, 1'b0, 1'b0, 2'd0, 2'd0};  // carries of T (B -> A, T kept)
      5'd7:  prog = {1'b0, 1'b0, 1'b0, 1'b0, 2'd1, 2'd0};  // FFT(t)
      5'd8:  prog = {1'b0, 1'b0, 1'b1, 1'b0, 2'd2, 2'd1};  //         times FFT(M')
      5'd9:  prog = {1'b0, 1'b0, 1'b1, 1'b1, 2'd1, 2'd0};  // IFFT(U)
      5'd10: prog = {1'b0, 1'b0, 1'b0, 1'b1, 2'd0, 2'd0};
      5'd11: prog = {1'b1, 1'b0, 1'b0, 1'b0, 2'd0, 2'd0};  // carries of U: u (A -> A)
      5'd12: prog = {1'b0, 1'b0, 1'b0, 1'b0, 2'd1, 2'd0};  // FFT(u)
      5'd13: prog = {1'b0, 1'b0, 1'b1, 1'b0, 2'd2, 2'd2};  //         times FFT(M)
      5'd14: prog = {1'b0, 1'b0, 1'b1, 1'b1, 2'd1, 2'd0};  // IFFT(W)
      5'd15: prog = {1'b0, 1'b0, 1'b0, 1'b1, 2'd0, 2'd0};
      default: prog = {1'b1, 1'b0, 1'b0, 1'b0, 2'd0, 2'd0};  // 16: carries of W + T: c, c - M
    endcase
  end
  wire       last_step = step == LAST_STEP;
  wire       p_carry = prog[7];
  wire       p_set = prog[6];
  wire [1:0] p_opnd = prog[1:0];

  // --- control -----------------------------------------------------------------------------
  reg  run;        // a step is in progress
  reg  go;         // one-cycle start of the current step
  wire pass_busy, pass_done;
  reg  carry_done;
  wire step_done = p_carry ? carry_done : pass_done;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_o <= 1'b0;
      done_o <= 1'b0;
      run <= 1'b0;
      go <= 1'b0;
      step <= 5'd0;
    end else begin
      go <= 1'b0;
      done_o <= 1'b0;
      if (start_i && !busy_o) begin
        busy_o <= 1'b1;
        run <= 1'b1;
        go <= 1'b1;
        step <= 5'd0;
      end else if (run && step_done) begin
        if (last_step) begin
          run <= 1'b0;
          busy_o <= 1'b0;
          done_o <= 1'b1;
        end else begin
          step <= step + 5'd1;
          go <= 1'b1;
        end
      end
    end
  end

  // --- the pass engine and the banks ---------------------------------------------------------
  wire [S*AW-1:0] pr_addr, po_addr, pw_addr;
  wire [64*S-1:0] pw_data;
  wire [S-1:0]    pw_en;
  wire [64*S-1:0] a_rdata, b_rdata, fm_rdata, fmp_rdata;
  wire [64*S-1:0] pr_data = p_set ? b_rdata : a_rdata;
  wire [64*S-1:0] po_data = (p_opnd == 2'd1) ? fmp_rdata : (p_opnd == 2'd2) ? fm_rdata : a_rdata;
  ntt64_pass #(.S(S), .STAGES(STAGES), .BASE_LAT(BASE_LAT), .LEVEL_LAT(LEVEL_LAT)) u_pass (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(go && !p_carry), .row_i(prog[5]), .inv_i(prog[4]),
    .op_i(prog[3:2]), .busy_o(pass_busy), .done_o(pass_done), .rd_addr_o(pr_addr),
    .rd_data_i(pr_data), .op_addr_o(po_addr), .op_data_i(po_data), .wr_en_o(pw_en),
    .wr_addr_o(pw_addr), .wr_data_o(pw_data)
  );
  wire unused_pass_busy = pass_busy;

  // carry pass: chunk k = row k/4, columns (k mod 4) L + l, read from every bank at word k/4
  reg  [KW-1:0] c_k;
  wire [AW-1:0] c_row = c_k[KW-1:2];
  reg  [S-1:0]  cw_en;    // carry-pass writes into A
  reg  [AW-1:0] cw_addr;
  reg  [64*S-1:0] cw_data;

  generate
    for (b = 0; b < S; b = b + 1) begin : g_bank
      wire a_own = run && !p_carry && !p_set;  // the pass works on A
      wire [AW-1:0] a_raddr = p_carry ? c_row : (a_own ? pr_addr[b*AW +: AW] : po_addr[b*AW +: AW]);
      wire a_we = p_carry ? cw_en[b] : (a_own && pw_en[b]);
      wire [AW-1:0] a_waddr = p_carry ? cw_addr : pw_addr[b*AW +: AW];
      wire [63:0] a_wdata = p_carry ? cw_data[64*b +: 64] : pw_data[64*b +: 64];
      sdp_ram #(.W(64), .DEPTH(S)) u_a (
        .clk_i(clk_i), .we_i(a_we), .waddr_i(a_waddr), .wdata_i(a_wdata), .raddr_i(a_raddr),
        .rdata_o(a_rdata[64*b +: 64]), .ld_we_i(a_we_i && a_addr_i[2*AW-1:AW] == b),
        .ld_addr_i(a_addr_i[AW-1:0]), .ld_data_i(a_data_i)
      );
      wire [AW-1:0] b_raddr = p_carry ? c_row : pr_addr[b*AW +: AW];
      sdp_ram #(.W(64), .DEPTH(S)) u_b (
        .clk_i(clk_i), .we_i(run && !p_carry && p_set && pw_en[b]),
        .waddr_i(pw_addr[b*AW +: AW]), .wdata_i(pw_data[64*b +: 64]), .raddr_i(b_raddr),
        .rdata_o(b_rdata[64*b +: 64]), .ld_we_i(b_we_i && b_addr_i[2*AW-1:AW] == b),
        .ld_addr_i(b_addr_i[AW-1:0]), .ld_data_i(b_data_i)
      );
      sdp_ram #(.W(64), .DEPTH(S)) u_fm (
        .clk_i(clk_i), .we_i(1'b0), .waddr_i({AW{1'b0}}), .wdata_i(64'd0),
        .raddr_i(po_addr[b*AW +: AW]), .rdata_o(fm_rdata[64*b +: 64]),
        .ld_we_i(fm_we_i && fm_addr_i[2*AW-1:AW] == b), .ld_addr_i(fm_addr_i[AW-1:0]),
        .ld_data_i(fm_data_i)
      );
      sdp_ram #(.W(64), .DEPTH(S)) u_fmp (
        .clk_i(clk_i), .we_i(1'b0), .waddr_i({AW{1'b0}}), .wdata_i(64'd0),
        .raddr_i(po_addr[b*AW +: AW]), .rdata_o(fmp_rdata[64*b +: 64]),
        .ld_we_i(fmp_we_i && fmp_addr_i[2*AW-1:AW] == b), .ld_addr_i(fmp_addr_i[AW-1:0]),
        .ld_data_i(fmp_data_i)
      );
    end
  endgenerate

  // --- carry passes: chunks 0 .. 4S-1, then one zero chunk that flushes the top ----------------
  reg           c_issue, c_flush;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c_issue <= 1'b0;
      c_flush <= 1'b0;
      c_k <= {KW{1'b0}};
    end else begin
      c_flush <= c_issue && &c_k;
      if (go && p_carry) begin
        c_issue <= 1'b1;
        c_k <= {KW{1'b0}};
      end else if (c_issue) begin
        c_k <= c_k + 1'b1;
        if (&c_k) c_issue <= 1'b0;
      end
    end
  end
  reg           r_v, r_flush;
  reg  [KW-1:0] r_k;
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) {r_v, r_flush} <= 2'b00;
    else {r_v, r_flush} <= {c_issue || c_flush, c_flush};
  always @(posedge clk_i) r_k <= c_k;

  // T's digits: written by the first carry pass, read (one cycle ahead) by the last
  wire [CB-1:0] t_dig;
  wire [CB-1:0] d_out;
  wire          d_v;
  reg  [KW-1:0] o_k;    // chunk index of the carry unit's output
  reg           o_top;  // the output is the flush chunk
  sdp_ram #(.W(CB), .DEPTH(4 * S)) u_tdig (
    .clk_i(clk_i), .we_i(d_v && !o_top && step == 5'd6), .waddr_i(o_k), .wdata_i(d_out),
    .raddr_i(c_k), .rdata_o(t_dig), .ld_we_i(1'b0), .ld_addr_i({KW{1'b0}}),
    .ld_data_i({CB{1'b0}})
  );

  wire [64*S-1:0] c_src = p_set ? b_rdata : a_rdata;
  wire [CW*L-1:0] coef;
  generate
    for (l = 0; l < L; l = l + 1) begin : g_coef
      wire [AW-1:0] bk = r_k[KW-1:2] + {r_k[1:0], {($clog2(L)){1'b0}}} + l[AW-1:0];
      wire [63:0] tdl = last_step ? {{(64 - B){1'b0}}, t_dig[B*l +: B]} : 64'd0;
      wire [63:0] sum = c_src[64*bk +: 64] + tdl;  // < 2^CW; the flush chunk is zeros
      assign coef[CW*l +: CW] = r_flush ? {CW{1'b0}} : sum[CW-1:0];
      if (CW < 64) begin : g_unused
        wire unused_sum = &{1'b0, sum[63:CW]};
      end
    end
  endgenerate
  wire [$clog2((CW + B - 1) / B + 1)-1:0] d_carry;
  ntt64_carry #(.G(L), .B(B), .CW(CW), .CSA_STAGES(CSA_STAGES), .SEG(SEG)) u_carry (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(r_v), .first_i(r_k == {KW{1'b0}} && !r_flush),
    .c_i(coef), .valid_o(d_v), .d_o(d_out), .carry_o(d_carry)
  );
  wire unused_carry = &{1'b0, d_carry};  // 0 after the flush chunk: C < 2^(B S^2 + 1)

  // outputs of the carry unit, chunk o_k: samples into A (low half: the digits; high: 0),
  // c and d = c - M chunks in the last pass
  wire          hi_half = o_k[KW-1];
  wire [AW-1:0] o_row = o_k[KW-1:2];
  wire [AW-1:0] o_col = {o_k[1:0], {($clog2(L)){1'b0}}};
  function automatic [AW-1:0] bank_of(input [AW-1:0] row, input [AW-1:0] col,
                                       input [AW-1:0] lane);
    bank_of = row + col + lane;
  endfunction
  integer wb, wl;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cw_en <= {S{1'b0}};
      o_k <= {KW{1'b0}};
      o_top <= 1'b0;
    end else begin
      cw_en <= {S{1'b0}};
      if (go) begin
        o_k <= {KW{1'b0}};
        o_top <= 1'b0;
      end else if (d_v) begin
        o_k <= o_k + 1'b1;
        if (&o_k) o_top <= 1'b1;
      end
      if (d_v && !o_top && !last_step)
        for (wl = 0; wl < L; wl = wl + 1) cw_en[bank_of(o_row, o_col, wl[AW-1:0])] <= 1'b1;
    end
  end
  always @(posedge clk_i) begin
    cw_addr <= o_row;
    for (wb = 0; wb < S; wb = wb + 1) cw_data[64*wb +: 64] <= 64'd0;
    for (wl = 0; wl < L; wl = wl + 1)
      if (!hi_half)
        cw_data[64*bank_of(o_row, o_col, wl[AW-1:0]) +: 64] <= {{(64 - B){1'b0}}, d_out[B*wl +: B]};
  end

  // the last pass: c chunks (the high half) and d = c - M with a borrow between chunks; M's
  // chunk is read one cycle ahead (chunk 0 while the low half passes)
  wire [CB-1:0] m_dig;
  wire [AW:0]   m_raddr = (d_v && hi_half && !o_top) ? o_k[AW:0] + 1'b1 : {(AW + 1){1'b0}};
  sdp_ram #(.W(CB), .DEPTH(2 * S)) u_m (
    .clk_i(clk_i), .we_i(1'b0), .waddr_i({(AW + 1){1'b0}}), .wdata_i({CB{1'b0}}),
    .raddr_i(m_raddr), .rdata_o(m_dig), .ld_we_i(m_we_i), .ld_addr_i(m_addr_i),
    .ld_data_i(m_data_i)
  );
  reg          borrow, sel;
  wire [CB:0]  diff = {1'b0, d_out} - {1'b0, m_dig} - {{CB{1'b0}}, borrow};
  wire         wr_c = d_v && last_step && hi_half && !o_top;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      borrow <= 1'b0;
      sel <= 1'b0;
    end else begin
      if (go) borrow <= 1'b0;
      else if (wr_c) borrow <= diff[CB];
      // the flush chunk holds c's top bit: c >= M when it is set or no borrow remains
      if (d_v && last_step && o_top) sel <= (d_out != {CB{1'b0}}) || !borrow;
    end
  end
  wire [CB-1:0] c_word, d_word;
  sdp_ram #(.W(CB), .DEPTH(2 * S)) u_c (
    .clk_i(clk_i), .we_i(wr_c), .waddr_i(o_k[AW:0]), .wdata_i(d_out), .raddr_i(rd_addr_i),
    .rdata_o(c_word), .ld_we_i(1'b0), .ld_addr_i({(AW + 1){1'b0}}), .ld_data_i({CB{1'b0}})
  );
  sdp_ram #(.W(CB), .DEPTH(2 * S)) u_d (
    .clk_i(clk_i), .we_i(wr_c), .waddr_i(o_k[AW:0]), .wdata_i(diff[CB-1:0]),
    .raddr_i(rd_addr_i), .rdata_o(d_word), .ld_we_i(1'b0), .ld_addr_i({(AW + 1){1'b0}}),
    .ld_data_i({CB{1'b0}})
  );
  assign rd_data_o = sel ? d_word : c_word;
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) rd_valid_o <= 1'b0;
    else rd_valid_o <= rd_re_i;

  // a carry pass ends one edge after the flush chunk's output
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) carry_done <= 1'b0;
    else carry_done <= run && p_carry && d_v && o_top && !go;
endmodule

`default_nettype wire
