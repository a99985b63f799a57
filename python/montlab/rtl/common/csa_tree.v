// csa_tree: an NIN-to-NOUT carry-save compressor tree, generated level by level.
//
// A montlab building block shared by DRMMM and, later, the NTT64 design. The cells are
//   csa_3to2 (carry-save adder, DRMMM paper eqs. (4)-(5)) and counter63 (DRMMM paper eq. (31)
//   and Fig. 8(a)); the level schedule is Wallace's: every level compresses every group it can.
// Parameters: W word bits (W >= 1); NIN input words (NIN >= 1); NOUT output words (2 or 3);
//   CELL 0 = 3:2 rows only, 1 = 6:3 counters in the form of eq. (31), 2 = 6:3 counters in the
//   form of Fig. 8(a); EAC 0 = arithmetic mod 2^W (carries out of bit W-1 are dropped), 1 = end-
//   around carry, arithmetic mod 2^W - 1 (the carries out of bit W-1 re-enter at bit 0, which is
//   exact there because 2^W = 1 mod 2^W - 1); REG_EVERY 0 = combinational, k > 0 = a register
//   rank after every k-th level and after the last level; STAGES 0 = as REG_EVERY says, s > 0
//   (with REG_EVERY = 0) = exactly s register ranks, spread evenly over the levels (see
//   Schedule), for a pipeline with a fixed latency.
// Function: word j of the input is in_i[j*W +: W], word j of the output out_o[j*W +: W], and
//   sum(out) = sum(in) mod 2^W (EAC = 0) or mod 2^W - 1 (EAC = 1; a word 2^W - 1 is one of the
//   two forms of 0). If NIN <= NOUT the outputs are the inputs followed by zero words.
// Levels: a level with n > NOUT words makes n' words. CELL 0: n/3 rows of 3:2 cells and n mod 3
//   words passed through, n' = 2*floor(n/3) + n mod 3. CELL 1, 2: floor(n/6) 6:3 counters, then
//   3:2 rows on the r = n mod 6 words left (floor(r/3) rows, r mod 3 words passed through),
//   n' = 3*floor(n/6) + 2*floor(r/3) + r mod 3. Levels are added while n > NOUT; the last level
//   ends at exactly NOUT words. LEVELS (the constant function levels_from) counts them; for
//   NIN = 36, NOUT = 2: CELL 0 takes 8 levels (36, 24, 16, 11, 8, 6, 4, 3, 2 words), CELL 1 or 2
//   takes 6 (36, 18, 9, 5, 4, 3, 2).
// Ranges: any input words < 2^W; output words < 2^W. Other parameter values stop elaboration
//   (an instance of a module that does not exist).
// Left out: a final carry-propagate adder (see add_sub_sel), sign handling, Dadda's
//   minimal-cell schedule, compressors other than 3:2 and 6:3, any reset (the registers hold
//   data only; there is no valid signal).
// Schedule: REG_EVERY = 0 (or LEVELS = 0): out_o follows in_i combinationally, LATENCY = 0 and
//   clk_i is unused. REG_EVERY = k > 0: the words after level l are registered when l is a
//   multiple of k or l = LEVELS, so LATENCY = ceil(LEVELS / k) registers: the value on in_i
//   before a clock edge shows on out_o after LATENCY edges, and a new input can be applied at
//   every edge (fully pipelined). STAGES = s > 0: the words after level l are registered when
//   floor(l*s/LEVELS) > floor((l-1)*s/LEVELS) (s ranks when s <= LEVELS, the last after level
//   LEVELS); when s > LEVELS every level is registered and s - LEVELS more ranks delay out_o;
//   LATENCY = s.
// Structure: level l's words are the net array g_lv[l].w, driven by the cells of level l (or by
//   registers after them) and read by name by level l + 1. 3:2 rows are csa_3to2 cells one bit
//   wider than the words, so that the carry out of bit W-1 is there for the end-around carry.
`default_nettype none

module csa_tree #(
  parameter integer W         = 8,
  parameter integer NIN       = 6,
  parameter integer NOUT      = 2,
  parameter integer CELL      = 0,
  parameter integer EAC       = 0,
  parameter integer REG_EVERY = 0,
  parameter integer STAGES    = 0
) (
  input  wire              clk_i,
  input  wire [NIN*W-1:0]  in_i,
  output wire [NOUT*W-1:0] out_o
);
  // Words after one level that starts with n > NOUT words.
  function integer next_count(input integer n);
    integer g6, r;
    begin
      g6 = (CELL == 0) ? 0 : n / 6;
      r  = n - 6 * g6;
      next_count = 3 * g6 + 2 * (r / 3) + r % 3;
    end
  endfunction

  // Words at level lv (level 0: the inputs).
  function integer count_at(input integer lv);
    integer n, l;
    begin
      n = NIN;
      for (l = 0; l < lv; l = l + 1)
        if (n > NOUT) n = next_count(n);
      count_at = n;
    end
  endfunction

  // Levels needed from n words down to NOUT.
  function integer levels_from(input integer n);
    integer c, l;
    begin
      c = n;
      l = 0;
      while (c > NOUT && c >= 3) begin   // c >= 3: ends even for an illegal NOUT < 2
        c = next_count(c);
        l = l + 1;
      end
      levels_from = l;
    end
  endfunction

  localparam integer LEVELS = levels_from(NIN);

  // 1 if the words after level l (1..LEVELS) are registered.
  function integer reg_after(input integer l);
    begin
      if (STAGES > 0) reg_after = ((l * STAGES) / LEVELS > ((l - 1) * STAGES) / LEVELS) ? 1 : 0;
      else if (REG_EVERY <= 0) reg_after = 0;
      else reg_after = (l % REG_EVERY == 0 || l == LEVELS) ? 1 : 0;
    end
  endfunction

  function integer latency_of(input integer levels);
    begin
      if (STAGES > 0) latency_of = STAGES;
      else if (REG_EVERY <= 0) latency_of = 0;
      else latency_of = (levels + REG_EVERY - 1) / REG_EVERY;
    end
  endfunction

  // Clock edges from in_i to out_o (see Schedule).
  localparam integer LATENCY = latency_of(LEVELS);
  // Ranks after the last level (STAGES > LEVELS only).
  localparam integer EXTRA   = (STAGES > LEVELS) ? STAGES - LEVELS : 0;
  localparam integer R1      = 1 % W;              // end-around rotation of weight-2 words
  localparam integer R2      = 2 % W;              // and of weight-4 words

  // v * 2^r mod 2^W - 1 for 0 <= r < W: a left rotation.
  function [W-1:0] rotl(input [W-1:0] v, input integer r);
    begin
      rotl = (v << r) | (v >> (W - r));
    end
  endfunction

  wire [W-1:0] res [0:NOUT-1];   // the words of the last level, padded to NOUT

  genvar l, j;
  generate
    // Level l holds its words in g_lv[l].w; level l + 1 reads them by name.
    for (l = 0; l <= LEVELS; l = l + 1) begin : g_lv
      localparam integer CNT = count_at(l);
      wire [W-1:0] w [0:CNT-1];

      if (l == LEVELS) begin : g_res
        for (j = 0; j < NOUT; j = j + 1) begin : g_w
          if (j < CNT) begin : g_word
            assign res[j] = w[j];
          end else begin : g_zero
            assign res[j] = {W{1'b0}};
          end
        end
      end

      if (l == 0) begin : g_in
        for (j = 0; j < NIN; j = j + 1) begin : g_w
          assign w[j] = in_i[j*W +: W];
        end
      end else begin : g_cells
        localparam integer PCNT = count_at(l - 1);
        localparam integer G6   = (CELL == 0) ? 0 : PCNT / 6;   // 6:3 counters
        localparam integer G3   = (PCNT - 6 * G6) / 3;          // 3:2 rows
        localparam integer NP   = PCNT - 6 * G6 - 3 * G3;       // words passed through
        localparam integer REG  = reg_after(l);
        wire [W-1:0] y [0:CNT-1];   // the cells' outputs, before the optional register

        for (j = 0; j < G6; j = j + 1) begin : g_c63
          wire [W-1:0] w0;
          wire [W:0]   w1;
          wire [W+1:0] w2;
          counter63 #(
            .W   (W),
            .FORM(CELL - 1)
          ) u_cnt (
            .x0_i(g_lv[l-1].w[6*j]),
            .x1_i(g_lv[l-1].w[6*j+1]),
            .x2_i(g_lv[l-1].w[6*j+2]),
            .x3_i(g_lv[l-1].w[6*j+3]),
            .x4_i(g_lv[l-1].w[6*j+4]),
            .x5_i(g_lv[l-1].w[6*j+5]),
            .w0_o(w0),
            .w1_o(w1),
            .w2_o(w2)
          );
          assign y[3*j] = w0;
          if (EAC == 0) begin : g_trunc
            assign y[3*j+1] = w1[W-1:0];
            assign y[3*j+2] = w2[W-1:0];
            wire unused_cout = ^{w1[W], w2[W+1:W]};
          end else begin : g_eac
            // Rotate the unshifted counts left by 1 and 2: the bits shifted out re-enter.
            assign y[3*j+1] = rotl(w1[W:1], R1);
            assign y[3*j+2] = rotl(w2[W+1:2], R2);
            wire unused_zero = ^{w1[0], w2[1:0]};
          end
        end

        for (j = 0; j < G3; j = j + 1) begin : g_c32
          // One bit wider than the words, so that c[W] is the carry out of bit W-1.
          wire [W:0] s, c;
          csa_3to2 #(
            .W(W + 1)
          ) u_csa (
            .a_i({1'b0, g_lv[l-1].w[6*G6+3*j]}),
            .b_i({1'b0, g_lv[l-1].w[6*G6+3*j+1]}),
            .c_i({1'b0, g_lv[l-1].w[6*G6+3*j+2]}),
            .s_o(s),
            .c_o(c)
          );
          assign y[3*G6+2*j] = s[W-1:0];
          if (EAC == 0) begin : g_trunc
            assign y[3*G6+2*j+1] = c[W-1:0];
            wire unused_cout = ^{s[W], c[W]};
          end else begin : g_eac
            assign y[3*G6+2*j+1] = rotl(c[W:1], R1);
            wire unused_zero = ^{s[W], c[0]};
          end
        end

        for (j = 0; j < NP; j = j + 1) begin : g_pass
          assign y[3*G6+2*G3+j] = g_lv[l-1].w[6*G6+3*G3+j];
        end

        for (j = 0; j < CNT; j = j + 1) begin : g_w
          if (REG != 0) begin : g_q
            reg [W-1:0] q;
            always @(posedge clk_i) q <= y[j];
            assign w[j] = q;
          end else begin : g_d
            assign w[j] = y[j];
          end
        end
      end
    end

    for (j = 0; j < NOUT; j = j + 1) begin : g_out
      if (EXTRA == 0) begin : g_direct
        assign out_o[j*W +: W] = res[j];
      end else begin : g_delay
        reg [W-1:0] dq [0:EXTRA-1];
        always @(posedge clk_i) begin : p_delay
          integer e;
          dq[0] <= res[j];
          for (e = 1; e < EXTRA; e = e + 1) dq[e] <= dq[e-1];
        end
        assign out_o[j*W +: W] = dq[EXTRA-1];
      end
    end

    if (LATENCY == 0) begin : g_noclk
      wire unused_clk = clk_i;
    end

    // Illegal parameters stop elaboration (Verilog-2001 has no $error): no such module exists.
    if (W < 1 || NIN < 1 || NOUT < 2 || NOUT > 3 || CELL < 0 || CELL > 2 || EAC < 0 || EAC > 1
        || REG_EVERY < 0 || STAGES < 0 || (STAGES > 0 && REG_EVERY > 0)) begin : g_illegal
      csa_tree_illegal_parameters u_stop ();
    end
  endgenerate
endmodule
