#pragma once

#include "components/blocks/logical/gates.hpp"
#include "components/blocks/logical/pre.hpp"

namespace acausal::blocks {

/// MSL Logical.RSFlipFlop: set S makes Q true, reset R makes it false; QI is
/// not Q. Built as MSL builds it, two Nor gates whose loop a Pre breaks, so its
/// parts carry MSL's names (nor, nor1, pre). Qini is Q at initialization (a
/// build option: pre.pre_u_start = not Qini).
struct RSFlipFlop : Component {
  BooleanInput S{*this, "S"}, R{*this, "R"};
  BooleanOutput Q{*this, "Q"}, QI{*this, "QI"};
  Nor& nor = add<Nor>("nor");
  Nor& nor1 = add<Nor>("nor1");
  Pre& pre = add<Pre>("pre");

  explicit RSFlipFlop(std::string name, bool Qini = false) : Component(std::move(name)) {
    pre.set_parameter("pre_u_start", Qini ? 0.0 : 1.0);
    connect(S, nor.u1);
    connect(nor1.y, nor.u2);
    connect(nor.y, pre.u);
    connect(pre.y, nor1.u1);
    connect(R, nor1.u2);
    connect(nor1.y, Q);
    connect(pre.y, QI);
  }
};

}  // namespace acausal::blocks
