// ntt64_carry: the pipelined carry-resolution unit: G convolution coefficients per cycle in,
//   G B-bit digits of their weighted sum per cycle out.
//
// Citation: the NTT paper Sec. IV-B and Fig. 2 (each IFFT output overlaps the next ones; a
//   64-bit sample is cut into 64/B blocks of B bits, four of 16 or three of 24, and the blocks
//   of a column are added by a hierarchical carry-look-ahead scheme, pipelined).
// Parameters: G coefficients (and digits) per chunk (G >= R - 1); B digit bits; CW coefficient
//   bits (B < CW); CSA_STAGES register ranks in the column compressor (csa_tree STAGES); SEG the
//   carry-look-ahead segment bits. Derived: R = ceil(CW/B) blocks per coefficient, GB = G*B.
// Function: a number is a run of chunks, the first with first_i; chunk k carries coefficients
//   c_(Gk) .. c_(Gk+G-1) (c_(Gk+j) = c_i[j*CW +: CW]). The number's value is
//   V = sum_i c_i 2^(B i), and d_o of chunk k is digits Gk .. Gk+G-1 of V's prefix, i.e.
//   P_k >> (GB k) mod 2^GB, where P_k is the sum of the blocks that land below digit G(k+1),
//   and carry_o = P_k >> (GB (k+1)) (0 <= carry_o <= R). To resolve the top of V, end the
//   number with a chunk of zeros: when CW < B (G + 1) its d_o are V's top digits and its
//   carry_o is 0.
// Structure: column window k holds, for each block row r < R, block r of the coefficient r
//   digits below (from chunk k or the registered top R - 1 coefficients of chunk k - 1), so
//   W_k = sum of R rows of GB bits < R 2^GB; csa_tree (R -> 2) and cla_add give W_k; the
//   1-bit-deep loop c_(k+1) = floor(W_k / 2^GB) + [(W_k mod 2^GB) + c_k >= 2^GB] resolves the
//   carries between chunks (the all-ones test of the upper bits is precomputed one rank
//   earlier); a second cla_add adds c_k to the digits.
// Ranges: any c_i < 2^CW; d_o < 2^GB; carry_o <= R.
// Left out: stalling (there is no ready), numbers without first_i (the state after reset acts
//   as a first chunk only for the carry: drive first_i).
// Schedule: a chunk taken with valid_i at edge 0 gives valid_o, d_o and carry_o after edge
//   LATENCY = CSA_STAGES + 6 (CSA_STAGES ranks, cla_add 2, the flag rank 1, the loop rank 1,
//   cla_add 2); one chunk per clock, bubbles allowed inside a number. valid_o is reset by
//   rst_ni.
`default_nettype none

module ntt64_carry #(
  parameter integer G          = 8,
  parameter integer B          = 16,
  parameter integer CW         = 64,
  parameter integer CSA_STAGES = 1,
  parameter integer SEG        = 16
) (
  input  wire            clk_i,
  input  wire            rst_ni,
  input  wire            valid_i,
  input  wire            first_i,
  input  wire [G*CW-1:0] c_i,
  output wire            valid_o,
  output wire [G*B-1:0]  d_o,
  output wire [$clog2((CW + B - 1) / B + 1)-1:0] carry_o
);
  localparam integer R = (CW + B - 1) / B;
  localparam integer GB = G * B;
  localparam integer AB = $clog2(R);  // bits of floor(W_k / 2^GB) <= R - 1
  localparam integer LB = $clog2(R + 1);  // bits of a carry c_k <= R
  localparam integer WW = GB + AB;
  localparam integer LATENCY = CSA_STAGES + 6;

  genvar r, j;
  generate
    if (B < 1 || CW <= B || G < R - 1 || CSA_STAGES < 0 || SEG < 1) begin : g_illegal
      ntt64_carry_illegal_parameters u_stop ();
    end
  endgenerate

  // The top R - 1 coefficients of the previous chunk of the number (zero before a first chunk).
  reg  [(R-1)*CW-1:0] prev;
  wire [(R-1)*CW-1:0] prev_use = first_i ? {((R - 1) * CW){1'b0}} : prev;
  always @(posedge clk_i) if (valid_i) prev <= c_i[G*CW-1 -: (R-1)*CW];

  // Row r, digit j: block r of coefficient j - r (of chunk k - 1 when j < r), zero-padded.
  wire [G*CW+(R-1)*CW-1:0] ext = {c_i, prev_use};  // coefficient j - r is at index j - r + R - 1
  // (The blocks of chunk k - 1 below its window's top and chunk k's blocks above this window
  // are not read here.)
  wire unused_ext = &{1'b0, ext};
  wire [R*WW-1:0] rows;
  generate
    for (r = 0; r < R; r = r + 1) begin : g_row
      for (j = 0; j < G; j = j + 1) begin : g_dig
        localparam integer AT = (j - r + R - 1) * CW + r * B;  // block r of coefficient j - r
        if ((r + 1) * B <= CW) begin : g_full
          assign rows[r*WW + j*B +: B] = ext[AT +: B];
        end else begin : g_part
          assign rows[r*WW + j*B +: B] = {{((r + 1) * B - CW){1'b0}}, ext[AT +: CW - r*B]};
        end
      end
      assign rows[r*WW + GB +: AB] = {AB{1'b0}};
    end
  endgenerate

  // W_k = the sum of the rows: R -> 2 words, then the carry-look-ahead adder.
  wire [2*WW-1:0] two;
  csa_tree #(.W(WW), .NIN(R), .NOUT(2), .CELL(0), .EAC(0), .REG_EVERY(0), .STAGES(CSA_STAGES))
    u_tree (.clk_i(clk_i), .in_i(rows), .out_o(two));
  wire [WW-1:0] wk;
  wire          wk_co;
  cla_add #(.W(WW), .S(SEG)) u_add1 (
    .clk_i(clk_i), .a_i(two[WW-1:0]), .b_i(two[2*WW-1:WW]), .cin_i(1'b0), .s_o(wk), .cout_o(wk_co)
  );
  wire unused_wk_co = wk_co;  // W_k < R 2^GB <= 2^WW

  wire [1:0] ctl1;  // {valid, first} beside W_k
  delay_line #(.W(2), .N(CSA_STAGES + 2), .RST(1)) u_ctl1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i({valid_i, first_i}), .q_o(ctl1)
  );

  // Flag rank: digits, floor(W_k / 2^GB), and whether the digits' bits above LB are all ones.
  reg [GB-1:0] rk;
  reg [AB-1:0] ak;
  reg          ones_hi;
  reg [1:0]    ctl2;
  always @(posedge clk_i) begin
    rk <= wk[GB-1:0];
    ak <= wk[GB +: AB];
    ones_hi <= &wk[GB-1:LB];
  end
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) ctl2 <= 2'b00;
    else ctl2 <= ctl1;

  // Loop rank: c_k in, c_(k+1) kept for the next chunk of the number.
  reg  [LB-1:0] c_state;
  wire [LB-1:0] c_in = ctl2[0] ? {LB{1'b0}} : c_state;
  wire [LB:0]   low = {1'b0, rk[LB-1:0]} + {1'b0, c_in};
  wire [LB-1:0] ak_w;  // ak widened to LB bits
  generate
    if (LB > AB) begin : g_widen
      assign ak_w = {{(LB - AB){1'b0}}, ak};
    end else begin : g_same
      assign ak_w = ak;
    end
  endgenerate
  wire [LB-1:0] c_next = ak_w + {{(LB - 1){1'b0}}, ones_hi & low[LB]};
  reg  [GB-1:0] rk3;
  reg  [LB-1:0] ck3, cn3;
  always @(posedge clk_i) begin
    if (ctl2[1]) c_state <= c_next;
    rk3 <= rk;
    ck3 <= c_in;
    cn3 <= c_next;
  end

  // Digits + c_k.
  wire d_co;
  cla_add #(.W(GB), .S(SEG)) u_add2 (
    .clk_i(clk_i), .a_i(rk3), .b_i({{(GB - LB){1'b0}}, ck3}), .cin_i(1'b0), .s_o(d_o),
    .cout_o(d_co)
  );
  wire unused_d_co = d_co;  // a carry out here is counted in c_(k+1)
  delay_line #(.W(1), .N(LATENCY), .RST(1)) u_v (
    .clk_i(clk_i), .rst_ni(rst_ni), .d_i(valid_i), .q_o(valid_o)
  );
  delay_line #(.W(LB), .N(2)) u_c (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(cn3), .q_o(carry_o));
endmodule

`default_nettype wire
