// ntt64_pass: one pass of the S^2-point NTT mod p = 2^64 - 2^32 + 1: S shift-only S-point DFTs
//   over the rows or the columns of S banks, each on the S/2-PE unit in four blocks, then the L
//   ModMuls (twiddle, product operand or 1), written back in place.
//
// Citation: the NTT paper Sec. IV-C (two stages of 32-point DFTs, the radix-16 unit used four
//   times per DFT, 8 ModMuls for twiddles and component-wise products, 32 banks of 32 words,
//   in-place conflict-free addressing). The dataflow is montlab.hw.ntt64_schedule's (replayed
//   there against montlab.transforms.ntt64): sample (r, c) in bank (r + c) mod S at address r;
//   DFT j reads (n, j) (COL) or (j, n) (ROW) and writes output k to the same place; blocks
//   (n1h, k1h) in the order (0,0), (1,0), (0,1), (1,1); the inverse DFT is the forward one with
//   output k' written as index -k' mod S.
// Parameters: S side (8, 16, 32); STAGES (ntt64_pe); BASE_LAT, LEVEL_LAT (ntt64_modmul).
//   Derived: L = S/4 lanes (samples per cycle), H = S/2 PEs, STEP = 192/S, AW = lg S.
// Function: start_i with row_i (0 COL, 1 ROW), inv_i and op_i (0: x 1, 1: x twiddle from
//   ntt64_twiddle, 2: x the operand banks' word at the output's place) runs the pass: for
//   j < S, output k of DFT j = op(k, j) * DFT_S(inputs of j)[k] (inverse: [-k mod S]).
// Ranges: bank words < 2^64 in; words written in [0, p).
// Left out: the banks themselves (the caller's: one registered read port and one write port
//   per bank, rd_addr_o / op_addr_o / wr_*), overlapping two passes, stalling.
// Schedule: start_i (while idle) at edge 0; DFT j's quarter q is addressed in cycle 4j + q
//   (cycles 0 .. 4S-1), L words per cycle; its data arrive 1 cycle later; the unit takes its
//   blocks in cycles 4j + 5 .. 4j + 8; the two halves of the output are summed 2 and 4 cycles
//   after the unit's LATENCY and leave L per cycle in ascending k' through one register, the
//   ModMuls and one write register. done_o is high with the last write, after edge 4S + DEPTH
//   from the start edge, DEPTH = 9 + the unit's LATENCY + the ModMul's (24 at the defaults);
//   busy_o is high from start through done_o.
`default_nettype none

module ntt64_pass #(
  parameter integer S         = 8,
  parameter integer STAGES    = 1,
  parameter integer BASE_LAT  = 3,
  parameter integer LEVEL_LAT = 4
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  input  wire                   start_i,
  input  wire                   row_i,
  input  wire                   inv_i,
  input  wire [1:0]             op_i,
  output reg                    busy_o,
  output reg                    done_o,
  output wire [S*$clog2(S)-1:0] rd_addr_o,
  input  wire [64*S-1:0]        rd_data_i,
  output wire [S*$clog2(S)-1:0] op_addr_o,
  input  wire [64*S-1:0]        op_data_i,
  output reg  [S-1:0]           wr_en_o,
  output reg  [S*$clog2(S)-1:0] wr_addr_o,
  output reg  [64*S-1:0]        wr_data_o
);
  localparam integer AW = $clog2(S);
  localparam integer L = S / 4;
  localparam integer H = S / 2;
  localparam integer STEP = 192 / S;
  localparam integer LU = STAGES + 2;  // ntt64_unit's LATENCY
  localparam [63:0] P = 64'hFFFFFFFF00000001;

  genvar b, l, e;
  generate
    if (!(S == 8 || S == 16 || S == 32)) begin : g_illegal
      ntt64_pass_illegal_parameters u_stop ();
    end
  endgenerate

  // --- issue: cycle c = 4j + q addresses quarter q of DFT j ------------------------------------
  reg          row, inv;
  reg  [1:0]   op;
  reg          issuing;
  reg  [AW+1:0] cnt;  // {j, q}
  wire [AW-1:0] cj = cnt[AW+1:2];
  localparam integer WC = $clog2(4 * S);
  localparam [WC-1:0] LAST = {WC{1'b1}};  // 4S - 1
  reg  [WC-1:0] writes;  // write cycles done in this pass

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_o <= 1'b0;
      issuing <= 1'b0;
      cnt <= {(AW + 2){1'b0}};
    end else if (start_i && !busy_o) begin
      busy_o <= 1'b1;
      issuing <= 1'b1;
      cnt <= {(AW + 2){1'b0}};
    end else begin
      if (issuing) begin
        cnt <= cnt + 1'b1;
        if (&cnt) issuing <= 1'b0;
      end
      if (done_o) busy_o <= 1'b0;
    end
  end
  always @(posedge clk_i) if (start_i && !busy_o) {row, inv, op} <= {row_i, inv_i, op_i};

  // Bank b holds (r, c) with r + c = b (mod S): in DFT j, word n sits in bank (j + n) mod S at
  // address j (ROW) or n = (b - j) mod S (COL), for reads and writes alike.
  function automatic [AW-1:0] addr_of(input [AW-1:0] bank, input [AW-1:0] j, input rw);
    reg [AW-1:0] n;
    begin
      n = bank - j;
      addr_of = rw ? j : n;
    end
  endfunction

  generate
    for (b = 0; b < S; b = b + 1) begin : g_raddr
      localparam [AW-1:0] BK = b;
      assign rd_addr_o[b*AW +: AW] = addr_of(BK, cj, row);
    end
  endgenerate

  // --- gather: lane l of quarter q is word n = qL + l, from bank (j + n) mod S ----------------
  reg          r_v;
  reg [AW-1:0] r_j;
  reg [1:0]    r_q;
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) r_v <= 1'b0;
    else r_v <= issuing;
  always @(posedge clk_i) {r_j, r_q} <= cnt;

  wire [64*L-1:0] quarter;
  generate
    for (l = 0; l < L; l = l + 1) begin : g_gather
      wire [AW-1:0] bk = r_j + {r_q, {($clog2(L)){1'b0}}} + l[AW-1:0];
      assign quarter[64*l +: 64] = rd_data_i[64*bk +: 64];
    end
  endgenerate

  // The DFT's words: quarters 0..2 wait in gbuf; with quarter 3 the whole DFT moves to xin,
  // which the unit reads for the next four cycles (one block each).
  reg  [64*L*3-1:0] gbuf;
  reg  [64*S-1:0] xin;
  wire            full = r_v && r_q == 2'd3;
  always @(posedge clk_i) begin
    if (r_v && r_q != 2'd3) gbuf[64*L*r_q +: 64*L] <= quarter;
    if (full) xin <= {quarter, gbuf};
  end

  // --- the unit: four blocks per DFT, (n1h, k1h) = (0,0), (1,0), (0,1), (1,1) -----------------
  reg  [1:0]    blk;
  reg           u_v;
  reg  [AW-1:0] u_j;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      u_v <= 1'b0;
      blk <= 2'd0;
    end else if (full) begin
      u_v <= 1'b1;
      blk <= 2'd0;
    end else if (u_v) begin
      blk <= blk + 2'd1;
      if (blk == 2'd3) u_v <= 1'b0;
    end
  end
  always @(posedge clk_i) if (full) u_j <= r_j;
  wire           n1h = blk[0];
  wire           k1h = blk[1];
  wire [64*H-1:0] ux = n1h ? xin[64*S-1:64*H] : xin[64*H-1:0];
  wire [64*H-1:0] uy;
  wire            uy_v;
  ntt64_unit #(.N(H), .STEP(STEP), .STAGES(STAGES)) u_unit (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(u_v), .n1_i(n1h), .k1_i(k1h), .x_i(ux),
    .valid_o(uy_v), .y_o(uy)
  );
  wire [1:0]    a_blk;
  wire [AW-1:0] a_j;
  delay_line #(.W(2 + AW), .N(LU)) u_ctl (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({blk, u_j}), .q_o({a_blk, a_j})
  );

  // --- accumulate: half k1h = block (0, k1h) + block (1, k1h) mod p ----------------------------
  reg [64*H-1:0] first;
  reg [64*H-1:0] half;
  reg            h_v;
  reg            h_k;
  reg [AW-1:0]   h_j;
  generate
    for (e = 0; e < H; e = e + 1) begin : g_acc
      wire [64:0] s = {1'b0, first[64*e +: 64]} + {1'b0, uy[64*e +: 64]};
      wire [64:0] d = s - {1'b0, P};
      always @(posedge clk_i) if (uy_v && a_blk[0]) half[64*e +: 64] <= d[64] ? s[63:0] : d[63:0];
    end
  endgenerate
  always @(posedge clk_i) begin
    if (uy_v && !a_blk[0]) first <= uy;
    if (uy_v && a_blk[0]) {h_k, h_j} <= {a_blk[1], a_j};
  end
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) h_v <= 1'b0;
    else h_v <= uy_v && a_blk[0];

  // --- serialize: a half leaves as two groups of L outputs, k' = H h_k + L ph + l --------------
  reg            s_v, s_ph;
  reg [AW-1:0]   s_j;
  reg [1:0]      s_m;  // k' / L
  reg [64*L-1:0] s_x;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_v <= 1'b0;
      s_ph <= 1'b0;
    end else if (h_v) begin
      s_v <= 1'b1;
      s_ph <= 1'b1;
    end else begin
      s_v <= s_ph;
      s_ph <= 1'b0;
    end
  end
  always @(posedge clk_i) begin
    if (h_v) begin
      s_x <= half[64*L-1:0];
      s_j <= h_j;
      s_m <= {h_k, 1'b0};
    end else if (s_ph) begin
      s_x <= half[64*H-1:64*L];
      s_m <= s_m + 2'd1;
    end
  end

  // The operand words at the outputs' places, and the twiddles, arrive one cycle later, beside
  // the outputs delayed by one register: every bank reads the address of DFT j's outputs, and
  // lane l takes its word from bank (j + k) mod S, k its output index (g_lane).
  generate
    for (b = 0; b < S; b = b + 1) begin : g_oaddr
      localparam [AW-1:0] BK = b;
      assign op_addr_o[b*AW +: AW] = addr_of(BK, s_j, row);
    end
  endgenerate

  reg            m_v;
  reg [AW-1:0]   m_j;
  reg [1:0]      m_m;
  reg [64*L-1:0] m_x;
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) m_v <= 1'b0;
    else m_v <= s_v;
  always @(posedge clk_i) {m_j, m_m, m_x} <= {s_j, s_m, s_x};

  wire [L-1:0] w_v;
  wire [AW-1:0] w_j [0:L-1];
  wire [AW-1:0] w_k [0:L-1];
  wire [63:0]   w_x [0:L-1];
  generate
    for (l = 0; l < L; l = l + 1) begin : g_lane
      // the output's index k (after the inverse's permutation) and its bank
      wire [AW-1:0] kp = {m_m, {($clog2(L)){1'b0}}} + l[AW-1:0];
      wire [AW-1:0] k = inv ? ({AW{1'b0}} - kp) : kp;
      wire [AW-1:0] bk = m_j + k;
      wire [63:0]   tw;
      ntt64_twiddle #(.S(S), .LANE(l)) u_tw (
        .clk_i(clk_i), .inv_i(inv), .j_i(s_j), .m_i(s_m), .rdata_o(tw)
      );
      wire [63:0] opw = op_data_i[64*bk +: 64];
      wire [63:0] mb = (op == 2'd1) ? tw : (op == 2'd2) ? opw : 64'd1;
      ntt64_modmul #(.BASE_LAT(BASE_LAT), .LEVEL_LAT(LEVEL_LAT), .TW(2 * AW)) u_mm (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(m_v), .tag_i({m_j, k}),
        .a_i(m_x[64*l +: 64]), .b_i(mb), .valid_o(w_v[l]), .tag_o({w_j[l], w_k[l]}),
        .res_o(w_x[l])
      );
    end
  endgenerate

  // --- write: output k of DFT j to bank (j + k) mod S ------------------------------------------
  integer wb, wl;
  always @(posedge clk_i) begin
    for (wb = 0; wb < S; wb = wb + 1) begin
      wr_addr_o[wb*AW +: AW] <= addr_of(wb[AW-1:0], w_j[0], row);
      wr_data_o[64*wb +: 64] <= 64'd0;
      for (wl = 0; wl < L; wl = wl + 1)
        if (w_j[wl] + w_k[wl] == wb[AW-1:0]) wr_data_o[64*wb +: 64] <= w_x[wl];
    end
  end
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_en_o <= {S{1'b0}};
      done_o <= 1'b0;
      writes <= 0;
    end else begin
      for (wb = 0; wb < S; wb = wb + 1) begin
        wr_en_o[wb] <= 1'b0;
        for (wl = 0; wl < L; wl = wl + 1)
          if (w_v[0] && w_j[wl] + w_k[wl] == wb[AW-1:0]) wr_en_o[wb] <= 1'b1;
      end
      done_o <= 1'b0;
      if (start_i && !busy_o) writes <= 0;
      else if (w_v[0]) begin
        writes <= writes + 1'b1;
        if (writes == LAST) done_o <= 1'b1;
      end
    end
  end
  wire unused_wv = &{1'b0, w_v};
endmodule

`default_nettype wire
