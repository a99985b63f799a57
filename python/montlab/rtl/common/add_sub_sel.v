// add_sub_sel: z = s >= m ? s - m : s with s = a + b + cin, pipelined or segment-serial.
//
// A montlab building block shared by DRMMM and, later, the NTT64 design: the final reduction of
//   a Montgomery multiplier whose result is in carry-save form (two words and a carry-in), a
//   carry-propagate adder followed by the conditional subtraction of the modulus.
// Parameters: W operand bits (W >= 1); F stages, 1 <= F <= W; SERIAL 0 = pipelined (F segment
//   adders, one new operation per clock), 1 = segment-serial (one segment adder used for F
//   cycles, one new operation every F clocks). Derived: S = ceil(W/F) segment bits, and the
//   operands are zero-extended to P = F*S bits, so segment j is bits [j*S, (j+1)*S) (bits at
//   or above W are zero; for some W, F the last segments hold only such bits).
// Function: s = a_i + b_i + cin_i, z_o = (s >= m_i) ? s - m_i : s. Per segment j, from the
//   carry c_j (c_0 = cin_i) and the borrow b_j (b_0 = 0): s_j = a_j + b_j + c_j mod 2^S (carry
//   out c_(j+1)), d_j = s_j - m_j - b_j mod 2^S (borrow out b_(j+1)). The borrow out of the last
//   segment is s < m, and it selects between the words s and d = s - m.
// Ranges: s < 2^W (the caller guarantees it: the carry out of bit W-1 is dropped); any m_i.
//   z_o < 2^W; z_o < m_i when s < 2*m_i. Parameters outside their ranges stop elaboration.
// Left out: a carry out or overflow flag, subtract-only or add-only modes, stalling (there is
//   no ready signal: the consumer takes z_o at the latest before the next result replaces it).
// Schedule: valid_i is taken at a clock edge (SERIAL = 0: every edge; SERIAL = 1: an edge at
//   which busy_o is low; valid_i while busy_o is high is ignored). Call that edge 0. valid_o is
//   high for one cycle after edge F, with the result on z_o; z_o holds it until the next result
//   (it is 0 after reset). rst_ni (asynchronous, active low) abandons every operation in flight.
//   SERIAL = 0: a_i, b_i, m_i, cin_i and valid_i are registered at edge 0; stage j computes
//   segment j between edges j and j + 1 while the segments above it wait in registers (input
//   skew) and the segments below it are carried along (output deskew); the carry and borrow are
//   registered between stages; stage F - 1 also selects, and z_o is registered at edge F.
//   Operations may be taken at every edge. busy_o is 0.
//   SERIAL = 1: the operands are loaded into segment shift registers at edge 0; in cycle k
//   (between edges k and k + 1, k = 0..F-1) the segment adder works on segment k and the result
//   segments shift into registers; in cycle F - 1 the select reads them with the last segment,
//   and z_o is registered at edge F. busy_o is high in cycles 0..F-2 of an operation, the
//   cycles whose closing edge cannot take a new one, and low in cycle F - 1: edge F, which
//   ends an operation, can take the next one (a new operation every F clocks). With F = 1
//   busy_o is always low.
// Structure: each segment adder is two S-bit carry chains (s_j, then d_j) and the select is a
//   W-bit multiplexer after the last one. Pipeline ranks and segment registers are connected
//   through arrays of nets; data registers have no reset, valid_o, busy_o and z_o do.
`default_nettype none

module add_sub_sel #(
  parameter integer W      = 16,
  parameter integer F      = 2,
  parameter integer SERIAL = 0
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire         valid_i,
  input  wire [W-1:0] a_i,
  input  wire [W-1:0] b_i,
  input  wire         cin_i,
  input  wire [W-1:0] m_i,
  output wire         valid_o,
  output wire [W-1:0] z_o,
  output wire         busy_o
);
  localparam integer S = (W + F - 1) / ((F < 1) ? 1 : F);   // segment bits
  localparam integer P = S * F;             // padded operand bits

  // The operands, zero-extended to P bits.
  wire [P-1:0] a_p, b_p, m_p;

  genvar j, k;
  generate
    // Illegal parameters stop elaboration (Verilog-2001 has no $error): no such module exists.
    if (W < 1 || F < 1 || F > W || SERIAL < 0 || SERIAL > 1) begin : g_illegal
      add_sub_sel_illegal_parameters u_stop ();
    end

    if (P > W) begin : g_pad
      assign a_p = {{(P-W){1'b0}}, a_i};
      assign b_p = {{(P-W){1'b0}}, b_i};
      assign m_p = {{(P-W){1'b0}}, m_i};
    end else begin : g_nopad
      assign a_p = a_i;
      assign b_p = b_i;
      assign m_p = m_i;
    end

    if (SERIAL == 0) begin : g_pipe
      // Rank j (j = 0..F-1): the registers in front of stage j. Rank 0 holds the operands as
      // taken; ps/pd hold the finished segments (below j*S; zero above) of s and d, pc/pbr the
      // carry and borrow into segment j, pv the valid token. The whole words travel from rank
      // to rank; synthesis removes the bits that no later stage reads.
      wire [P-1:0] pa [0:F-1];
      wire [P-1:0] pb [0:F-1];
      wire [P-1:0] pm [0:F-1];
      wire [P-1:0] ps [0:F-1];
      wire [P-1:0] pd [0:F-1];
      wire         pc [0:F-1];
      wire         pbr [0:F-1];
      wire         pv [0:F-1];

      reg [P-1:0] a0_q, b0_q, m0_q;
      reg         c0_q, v0_q;
      always @(posedge clk_i) begin
        a0_q <= a_p;
        b0_q <= b_p;
        m0_q <= m_p;
        c0_q <= cin_i;
      end
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) v0_q <= 1'b0;
        else v0_q <= valid_i;
      end
      assign pa[0]  = a0_q;
      assign pb[0]  = b0_q;
      assign pm[0]  = m0_q;
      assign pc[0]  = c0_q;
      assign pbr[0] = 1'b0;
      assign ps[0]  = {P{1'b0}};
      assign pd[0]  = {P{1'b0}};
      assign pv[0]  = v0_q;

      reg [W-1:0] z_q;
      reg         valid_q;

      for (j = 0; j < F; j = j + 1) begin : g_st
        // Segment j of s and of s - m.
        wire [S:0] sum = {1'b0, pa[j][j*S +: S]} + {1'b0, pb[j][j*S +: S]} + {{S{1'b0}}, pc[j]};
        wire [S:0] dif = {1'b0, sum[S-1:0]} - {1'b0, pm[j][j*S +: S]} - {{S{1'b0}}, pbr[j]};
        // The words s and d with segment j filled in (ps[j], pd[j] are zero from bit j*S up).
        wire [P-1:0] s_nx, d_nx;
        if (F == 1) begin : g_whole
          assign s_nx = sum[S-1:0];
          assign d_nx = dif[S-1:0];
        end else begin : g_fill
          assign s_nx = ps[j] | ({{(P-S){1'b0}}, sum[S-1:0]} << (j * S));
          assign d_nx = pd[j] | ({{(P-S){1'b0}}, dif[S-1:0]} << (j * S));
        end

        if (j < F - 1) begin : g_rank
          reg [P-1:0] a_q, b_q, m_q, s_q, d_q;
          reg         c_q, br_q, v_q;
          always @(posedge clk_i) begin
            a_q  <= pa[j];
            b_q  <= pb[j];
            m_q  <= pm[j];
            s_q  <= s_nx;
            d_q  <= d_nx;
            c_q  <= sum[S];
            br_q <= dif[S];
          end
          always @(posedge clk_i or negedge rst_ni) begin
            if (!rst_ni) v_q <= 1'b0;
            else v_q <= pv[j];
          end
          assign pa[j+1]  = a_q;
          assign pb[j+1]  = b_q;
          assign pm[j+1]  = m_q;
          assign ps[j+1]  = s_q;
          assign pd[j+1]  = d_q;
          assign pc[j+1]  = c_q;
          assign pbr[j+1] = br_q;
          assign pv[j+1]  = v_q;
        end else begin : g_sel
          // The borrow out of the last segment is s < m.
          wire [P-1:0] z_nx = dif[S] ? s_nx : d_nx;
          always @(posedge clk_i or negedge rst_ni) begin
            if (!rst_ni) begin
              z_q     <= {W{1'b0}};
              valid_q <= 1'b0;
            end else begin
              valid_q <= pv[j];
              if (pv[j]) z_q <= z_nx[W-1:0];
            end
          end
          // The carry out of s is 0 by the contract; bits at or above W are not outputs.
          wire unused_top = ^{sum[S], z_nx};
        end
      end

      if (F == 1) begin : g_one
        // A single stage fills its only segment itself: the empty words of rank 0 go unread.
        wire unused_rank0 = ^{ps[0], pd[0]};
      end

      assign z_o     = z_q;
      assign valid_o = valid_q;
      assign busy_o  = 1'b0;
    end else begin : g_serial
      localparam integer CW = (F > 1) ? $clog2(F) : 1;
      localparam [31:0] LAST32 = F - 1;
      localparam [CW-1:0] LAST = LAST32[CW-1:0];

      reg          act_q;       // an operation is in cycles 0..F-1
      reg [CW-1:0] cnt_q;       // its cycle
      reg          c_q, br_q;   // carry and borrow into the segment of this cycle
      reg [W-1:0]  z_q;
      reg          valid_q;

      wire last = act_q & (cnt_q == LAST);
      wire busy = act_q & ~last;
      wire go   = valid_i & ~busy;

      // Operand segments waiting (sa[0]: the segment of this cycle) and result segments done
      // (rs[k], k < F-1: segment k once cycle F-1 is reached; rs[F-1]: this cycle's segment).
      wire [S-1:0] sa [0:F-1];
      wire [S-1:0] sb [0:F-1];
      wire [S-1:0] sm [0:F-1];
      wire [S-1:0] rs [0:F-1];
      wire [S-1:0] rd [0:F-1];

      wire [S:0] sum = {1'b0, sa[0]} + {1'b0, sb[0]} + {{S{1'b0}}, c_q};
      wire [S:0] dif = {1'b0, sum[S-1:0]} - {1'b0, sm[0]} - {{S{1'b0}}, br_q};
      assign rs[F-1] = sum[S-1:0];
      assign rd[F-1] = dif[S-1:0];

      for (k = 0; k < F; k = k + 1) begin : g_seg
        reg  [S-1:0] a_q, b_q, m_q;
        wire [S-1:0] a_up, b_up, m_up;   // what shifts in from above (the top one holds)
        if (k < F - 1) begin : g_up
          assign a_up = sa[k+1];
          assign b_up = sb[k+1];
          assign m_up = sm[k+1];
        end else begin : g_top
          assign a_up = a_q;
          assign b_up = b_q;
          assign m_up = m_q;
        end
        always @(posedge clk_i) begin
          a_q <= go ? a_p[k*S +: S] : a_up;
          b_q <= go ? b_p[k*S +: S] : b_up;
          m_q <= go ? m_p[k*S +: S] : m_up;
        end
        assign sa[k] = a_q;
        assign sb[k] = b_q;
        assign sm[k] = m_q;

        // The result segments shift down every cycle: exactly F - 1 shifts separate cycle 0
        // from cycle F - 1 of an operation, whatever happened before it.
        if (k < F - 1) begin : g_res
          reg [S-1:0] s_q, d_q;
          always @(posedge clk_i) begin
            s_q <= rs[k+1];
            d_q <= rd[k+1];
          end
          assign rs[k] = s_q;
          assign rd[k] = d_q;
        end
      end

      // The words s and s - m in cycle F - 1, and the select by the last borrow.
      wire [P-1:0] s_all, d_all;
      for (k = 0; k < F; k = k + 1) begin : g_word
        assign s_all[k*S +: S] = rs[k];
        assign d_all[k*S +: S] = rd[k];
      end
      wire [P-1:0] z_nx = dif[S] ? s_all : d_all;

      always @(posedge clk_i) begin
        c_q  <= go ? cin_i : sum[S];
        br_q <= go ? 1'b0 : dif[S];
      end

      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          act_q   <= 1'b0;
          cnt_q   <= {CW{1'b0}};
          z_q     <= {W{1'b0}};
          valid_q <= 1'b0;
        end else begin
          valid_q <= last;
          if (last) z_q <= z_nx[W-1:0];
          if (go) begin
            act_q <= 1'b1;
            cnt_q <= {CW{1'b0}};
          end else if (last) begin
            act_q <= 1'b0;
          end else if (act_q) begin
            cnt_q <= cnt_q + 1'b1;
          end
        end
      end

      assign z_o     = z_q;
      assign valid_o = valid_q;
      assign busy_o  = busy;
      // Bits at or above W are not outputs.
      wire unused_top = ^z_nx;
    end
  endgenerate
endmodule
