// mont_formal: the formal harness of the MWR2MM family (any design with their interface:
//   clk_i, rst_ni, start_i, x_i, y_i, m_i -> busy_o, done_o, z_o) and, with MONT_DRMMM
//   defined, of drmmm (the same plus mp_i = M' = -m^-1 mod 2^(K T), the table port tied off).
//
// Citation: the defining equation of a Montgomery product (Montgomery 1985): z = x y r^-1
//   mod m, checked as z r = x y (mod m), and each design header's cycle schedule. Nothing
//   here is taken from the design under test.
// Parameters: N operand bits, W word bits, P PEs (0: the design has no P), RB with r = 2^RB,
//   LAT the documented cycle of done_o (clock edges after the one that takes start_i; from
//   the spec's cycle model), `MONT_DUT the module; for drmmm K, T, G, F, SERIAL, CELL,
//   PRINTED_LOOP, Q_CARRIES (its own parameters; PP = 0) and, at each taken start, the
//   assumption m mp = -1 (mod 2^(K T)), M' by its definition.
// Properties, from reset (rst_ni low in the first cycle), for every input sequence with, at
//   each taken start, m odd, 1 < m < 2^N and x, y < m:
//   * done_o is high exactly in cycle LAT of an operation (cycle k follows the k-th edge
//     after the start edge), and busy_o exactly in cycles 0 .. LAT-1;
//   * at done_o: 0 <= z_o < 2m and z_o 2^RB = x y (mod m), for the x, y, m taken at start;
//   * z_o holds its value after done_o until the next start is taken;
//   * rst_ni low at any time (asynchronous) returns to idle: busy_o = done_o = 0 until a start.
// Left out: what the outputs show while busy_o is high (the simulations check it step by step).
`default_nettype none

`ifndef MONT_DUT
`define MONT_DUT mwr2mm_arch2
`endif

module mont_formal #(
  parameter integer N   = 4,
  parameter integer W   = 2,
  parameter integer P   = 0,
  parameter integer RB  = 4,
  parameter integer LAT = 4,
  parameter integer K = 2,
  parameter integer T = 1,
  parameter integer G = 1,
  parameter integer F = 1,
  parameter integer SERIAL = 0,
  parameter integer CELL = 1,
  parameter integer PRINTED_LOOP = 0,
  parameter integer Q_CARRIES = 1
) (
  input wire         clk_i,
  input wire         rst_ni,
  input wire         start_i,
  input wire [N-1:0] x_i,
  input wire [N-1:0] y_i,
  input wire [N-1:0] m_i,
  input wire [K*T-1:0] mp_i
);
  localparam integer WIDE = 2 * N + RB + 2;
  localparam integer CW = $clog2(LAT + 2) + 1;
  localparam [CW-1:0] LAST = LAT;

  wire         busy, done;
  wire [N:0]   z;

`ifdef MONT_DRMMM
  wire [N-1:0] zd;
  drmmm #(
    .N(N), .K(K), .T(T), .G(G), .F(F), .SERIAL(SERIAL), .PP(0), .CELL(CELL),
    .PRINTED_LOOP(PRINTED_LOOP), .Q_CARRIES(Q_CARRIES)
  ) dut (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start_i), .x_i(x_i), .y_i(y_i), .m_i(m_i),
    .mp_i(mp_i), .tm_we_i(1'b0), .tm_addr_i(4'd0), .tm_data_i({(N + 4){1'b0}}),
    .busy_o(busy), .done_o(done), .z_o(zd)
  );
  assign z = {1'b0, zd};
  wire [N+K*T-1:0] mmp = m_i * mp_i;
  wire mp_ok = mmp[K*T-1:0] == {(K * T){1'b1}};  // m M' = -1 mod 2^(K T)
`else
  wire mp_ok = 1'b1;  // mp_i unused
  generate
    if (P > 0) begin : g_p
      `MONT_DUT #(.N(N), .W(W), .P(P)) dut (
        .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start_i), .x_i(x_i), .y_i(y_i), .m_i(m_i),
        .busy_o(busy), .done_o(done), .z_o(z)
      );
    end else begin : g_nop
      `MONT_DUT #(.N(N), .W(W)) dut (
        .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start_i), .x_i(x_i), .y_i(y_i), .m_i(m_i),
        .busy_o(busy), .done_o(done), .z_o(z)
      );
    end
  endgenerate
`endif

  reg init = 1'b1;
  always @(posedge clk_i) init <= 1'b0;

  // The golden side: the operands taken at start and the cycle count of the operation.
  wire go = start_i && !busy && rst_ni;
  reg          active = 1'b0, held = 1'b0;
  reg [CW-1:0] cnt = 0;
  reg [N-1:0]  xq = 0, yq = 0, mq = 0;
  reg [N:0]    zq = 0;
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      active <= 1'b0;
      held   <= 1'b0;
    end else if (go) begin
      active <= 1'b1;
      held   <= 1'b0;
      cnt    <= 0;
      xq     <= x_i;
      yq     <= y_i;
      mq     <= m_i;
    end else if (active && cnt == LAST) begin
      active <= 1'b0;
      held   <= 1'b1;
      zq     <= z;
    end else if (active) begin
      cnt <= cnt + 1'b1;
    end

  wire [WIDE-1:0] zw = {{(WIDE - N - 1){1'b0}}, z};
  wire [WIDE-1:0] mw = {{(WIDE - N){1'b0}}, mq};
  wire [WIDE-1:0] xw = {{(WIDE - N){1'b0}}, xq};
  wire [WIDE-1:0] yw = {{(WIDE - N){1'b0}}, yq};
  wire [WIDE-1:0] lhs = (zw << RB) % mw;
  wire [WIDE-1:0] rhs = (xw * yw) % mw;

  always @(*) begin
    if (init) assume (!rst_ni);
    if (start_i && !busy && rst_ni)
      assume (m_i[0] && m_i > 1 && x_i < m_i && y_i < m_i && mp_ok);
    if (!init && rst_ni) begin
      assert (done == (active && cnt == LAST));
      assert (busy == (active && cnt != LAST));
      if (done) begin
        assert (zw < (mw << 1));
        assert (lhs == rhs);
      end
      if (held) assert (z == zq);
    end
  end
endmodule

`default_nettype wire
