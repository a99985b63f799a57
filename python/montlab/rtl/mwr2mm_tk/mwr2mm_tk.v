// mwr2mm_tk: Montgomery multiplier, Tenca and Koc's MWR2MM pipeline of p PEs.
//
// Citation: Huang, Gaj, El-Ghazawi, IEEE TC 60(7) 2011, Sec. 2-3, Algorithm 2 and Fig. 1
//   (after Tenca and Koc, CHES 1999 / IEEE TC 2003); SPEC 5.2 and 5.5.
//   Python models: montlab.ref.mwr2mm (arithmetic), montlab.cycles.mwr2mm (schedule).
// Parameters: N operand bits (N >= W); W word bits (W >= 2); P PEs, P >= P_max =
//   ceil((E+1)/2) (montlab.hw checks it). Derived: E = ceil((N+1)/W) words.
// Function: z_o = x*y*2^-N mod m, 0 <= z_o < 2m (no final subtraction).
// Ranges: m odd, 1 < m < 2^N; 0 <= x, y < m. z_o has N+1 bits.
// Left out: the final subtraction, the queue needed when P < P_max, redundant S, the domain
//   conversions, overlapping consecutive operations.
// Schedule: start_i is taken at a clock edge while busy_o is low; X, Y, M are loaded in parallel
//   and every PE is cleared. Call the next cycle cycle 0. Column i (round i, bit x_i) is launched
//   in cycle 2i on PE i mod P and runs task (i, j) in cycle 2i + j, j = 0..E (the ASAP schedule
//   of Fig. 1): word j of round i-1 is final one cycle before round i needs it. The last task,
//   (N-1, E), ends with cycle 2N+E-2: done_o is high for one cycle after 2N + E - 1 clock edges,
//   busy_o falls at that edge, and z_o holds the result until the next start is taken (start_i
//   may be high in the done_o cycle). rst_ni (asynchronous, active low) abandons an operation.
// Structure: the PEs form a ring. Words of S go from PE k to PE k+1 through one register;
//   Y^(j) and M^(j) circulate through two registers per PE (a loader shifts them in for column
//   0); x_i and the launch token come from the control. The words of the last column are
//   collected as they become final.
`default_nettype none

module mwr2mm_tk #(
  parameter integer N = 64,
  parameter integer W = 16,
  parameter integer P = 3
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
  localparam integer E    = (N + W) / W;   // ceil((N+1)/W)
  localparam integer CW   = $clog2(N + 1);
  localparam integer LAST = (N - 1) % P;   // the PE that runs the last column
  localparam [31:0] CLAST32 = N - 1;
  localparam [CW-1:0] CLAST = CLAST32[CW-1:0];

  reg           busy_q, done_q, run_q, phase_q;
  reg [CW-1:0]  col_q;
  reg [N-1:0]   x_q;
  reg [P-1:0]   tok_q;     // one-hot: the PE that takes the next column
  reg [W*E-1:0] y_ld_q, m_ld_q;
  reg [W*E-1:0] z_q;

  wire go     = start_i & ~busy_q;
  wire launch = run_q & ~phase_q;

  wire [2*W-1:0] pe_ym_in [0:P-1];
  wire [2*W-1:0] pe_ym    [0:P-1];
  wire [W-1:0]   pe_s     [0:P-1];
  wire [W-1:0]   pe_so    [0:P-1];
  wire           pe_we    [0:P-1];
  wire           pe_fin   [0:P-1];

  // Column 0 takes Y and M from the loader; later columns from the previous PE of the ring.
  assign pe_ym_in[0] = {m_ld_q[W-1:0], y_ld_q[W-1:0]} | pe_ym[P-1];

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      done_q  <= 1'b0;
      run_q   <= 1'b0;
      phase_q <= 1'b0;
      col_q   <= {CW{1'b0}};
      x_q     <= {N{1'b0}};
      tok_q   <= {P{1'b0}};
      y_ld_q  <= {(W*E){1'b0}};
      m_ld_q  <= {(W*E){1'b0}};
      z_q     <= {(W*E){1'b0}};
    end else begin
      done_q <= 1'b0;
      if (go) begin
        busy_q  <= 1'b1;
        run_q   <= 1'b1;
        phase_q <= 1'b0;
        col_q   <= {CW{1'b0}};
        x_q     <= x_i;
        tok_q   <= {{(P-1){1'b0}}, 1'b1};
        y_ld_q  <= {{(W*E-N){1'b0}}, y_i};
        m_ld_q  <= {{(W*E-N){1'b0}}, m_i};
        z_q     <= {(W*E){1'b0}};
      end else begin
        y_ld_q <= y_ld_q >> W;
        m_ld_q <= m_ld_q >> W;
        if (run_q) phase_q <= ~phase_q;
        if (launch) begin
          x_q   <= x_q >> 1;
          col_q <= col_q + 1'b1;
          tok_q <= {tok_q[P-2:0], tok_q[P-1]};
          if (col_q == CLAST) run_q <= 1'b0;
        end
        if (pe_we[LAST]) z_q <= {pe_so[LAST], z_q[W*E-1:W]};
        if (pe_fin[LAST]) begin
          busy_q <= 1'b0;
          done_q <= 1'b1;
        end
      end
    end
  end

  genvar k;
  generate
    for (k = 0; k < P; k = k + 1) begin : g_pe
      if (k > 0) begin : g_link
        assign pe_ym_in[k] = pe_ym[k-1];
      end
      mwr2mm_tk_pe #(
        .W(W),
        .E(E)
      ) u_pe (
        .clk_i    (clk_i),
        .rst_ni   (rst_ni),
        .clr_i    (go),
        .launch_i (launch & tok_q[k]),
        .x_i      (x_q[0]),
        .last_i   (col_q == CLAST),
        .ym_i     (pe_ym_in[k]),
        .s_i      (pe_s[(k + P - 1) % P]),
        .ym_o     (pe_ym[k]),
        .s_o      (pe_s[k]),
        .so_next_o(pe_so[k]),
        .so_we_o  (pe_we[k]),
        .fin_o    (pe_fin[k])
      );
    end
  endgenerate

  assign z_o    = z_q[N:0];
  assign busy_o = busy_q;
  assign done_o = done_q;

  wire unused_ok = ^{z_q};
endmodule
