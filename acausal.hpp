// acausal: equation-based component modeling compiled to a DAE and integrated
// with SUNDIALS IDA. This umbrella header brings in the modeling API and the
// standard component library.
#pragma once

#include "solver/component.hpp"
#include "solver/errors.hpp"
#include "solver/expr.hpp"
#include "solver/model.hpp"
#include "solver/result.hpp"
#include "solver/simulator.hpp"

#include "connectors/rotational.hpp"
#include "connectors/signal.hpp"
#include "connectors/translational.hpp"

#include "components/blocks/constant.hpp"
#include "components/blocks/sine.hpp"
#include "components/blocks/step.hpp"
#include "components/rotational/damper.hpp"
#include "components/rotational/fixed.hpp"
#include "components/rotational/ideal_gear.hpp"
#include "components/rotational/ideal_rolling_wheel.hpp"
#include "components/rotational/inertia.hpp"
#include "components/rotational/spring.hpp"
#include "components/rotational/torque.hpp"
#include "components/rotational/torque_step.hpp"
#include "components/translational/damper.hpp"
#include "components/translational/fixed.hpp"
#include "components/translational/force.hpp"
#include "components/translational/mass.hpp"
#include "components/translational/quadratic_speed_dependent_force.hpp"
#include "components/translational/spring.hpp"
