#pragma once

#include <cmath>
#include <iterator>

#include "components/blocks/noise/partial_noise.hpp"

namespace acausal::blocks {

/// MSL's Modelica.Math.Special.erfInv (v4.0.0; Boost's 53-bit erf_inv
/// rational approximations, the coefficients copied from Special.mo's
/// Internal.erfInvUtil), in expressions, for the noise blocks' quantiles.
namespace msl_special {

namespace erf_inv_coefficients {
inline constexpr double y1 = 0.0891314744949340820313;
inline constexpr double y2 = 2.249481201171875;
inline constexpr double y3 = 0.807220458984375;
inline constexpr double y4 = 0.93995571136474609375;
inline constexpr double y5 = 0.98362827301025390625;
inline constexpr double y6 = 0.99714565277099609375;
inline constexpr double y7 = 0.99941349029541015625;
inline constexpr double P1[] = {-0.000508781949658280665617, -0.00836874819741736770379, 0.0334806625409744615033, -0.0126926147662974029034, -0.0365637971411762664006, 0.0219878681111168899165, 0.00822687874676915743155, -0.00538772965071242932965};
inline constexpr double Q1[] = {1.0, -0.970005043303290640362, -1.56574558234175846809, 1.56221558398423026363, 0.662328840472002992063, -0.71228902341542847553, -0.0527396382340099713954, 0.0795283687341571680018, -0.00233393759374190016776, 0.000886216390456424707504};
inline constexpr double P2[] = {-0.202433508355938759655, 0.105264680699391713268, 8.37050328343119927838, 17.6447298408374015486, -18.8510648058714251895, -44.6382324441786960818, 17.445385985570866523, 21.1294655448340526258, -3.67192254707729348546};
inline constexpr double Q2[] = {1.0, 6.24264124854247537712, 3.9713437953343869095, -28.6608180499800029974, -20.1432634680485188801, 48.5609213108739935468, 10.8268667355460159008, -22.6436933413139721736, 1.72114765761200282724};
inline constexpr double P3[] = {-0.131102781679951906451, -0.163794047193317060787, 0.117030156341995252019, 0.387079738972604337464, 0.337785538912035898924, 0.142869534408157156766, 0.0290157910005329060432, 0.00214558995388805277169, -0.679465575181126350155e-6, 0.285225331782217055858e-7, -0.681149956853776992068e-9};
inline constexpr double Q3[] = {1.0, 3.46625407242567245975, 5.38168345707006855425, 4.77846592945843778382, 2.59301921623620271374, 0.848854343457902036425, 0.152264338295331783612, 0.01105924229346489121};
inline constexpr double P4[] = {-0.0350353787183177984712, -0.00222426529213447927281, 0.0185573306514231072324, 0.00950804701325919603619, 0.00187123492819559223345, 0.000157544617424960554631, 0.460469890584317994083e-5, -0.230404776911882601748e-9, 0.266339227425782031962e-11};
inline constexpr double Q4[] = {1.0, 1.3653349817554063097, 0.762059164553623404043, 0.220091105764131249824, 0.0341589143670947727934, 0.00263861676657015992959, 0.764675292302794483503e-4};
inline constexpr double P5[] = {-0.0167431005076633737133, -0.00112951438745580278863, 0.00105628862152492910091, 0.000209386317487588078668, 0.149624783758342370182e-4, 0.449696789927706453732e-6, 0.462596163522878599135e-8, -0.281128735628831791805e-13, 0.99055709973310326855e-16};
inline constexpr double Q5[] = {1.0, 0.591429344886417493481, 0.138151865749083321638, 0.0160746087093676504695, 0.000964011807005165528527, 0.275335474764726041141e-4, 0.282243172016108031869e-6};
inline constexpr double P6[] = {-0.0024978212791898131227, -0.779190719229053954292e-5, 0.254723037413027451751e-4, 0.162397777342510920873e-5, 0.396341011304801168516e-7, 0.411632831190944208473e-9, 0.145596286718675035587e-11, -0.116765012397184275695e-17};
inline constexpr double Q6[] = {1.0, 0.207123112214422517181, 0.0169410838120975906478, 0.000690538265622684595676, 0.145007359818232637924e-4, 0.144437756628144157666e-6, 0.509761276599778486139e-9};
inline constexpr double P7[] = {-0.000539042911019078575891, -0.28398759004727721098e-6, 0.899465114892291446442e-6, 0.229345859265920864296e-7, 0.225561444863500149219e-9, 0.947846627503022684216e-12, 0.135880130108924861008e-14, -0.348890393399948882918e-21};
inline constexpr double Q7[] = {1.0, 0.0845746234001899436914, 0.00282092984726264681981, 0.468292921940894236786e-4, 0.399968812193862100054e-6, 0.161809290887904476097e-8, 0.231558608310259605225e-11};
}  // namespace erf_inv_coefficients

/// MSL's Internal.polyEval: c[0] + u·(c[1] + u·(...)), Horner's scheme.
template <std::size_t N>
Expr poly_eval(const double (&c)[N], const Expr& u) {
  Expr y = c[N - 1];
  for (std::size_t j = N - 1; j-- > 0;) y = c[j] + u * y;
  return y;
}

/// Internal.erfInvUtil(p, q), q = 1 - p, p in [0, 1).
inline Expr erf_inv_util(const Expr& p, const Expr& q) {
  using namespace erf_inv_coefficients;
  const Expr g1 = p * (p + 10.0);
  const Expr y_small = g1 * y1 + g1 * (poly_eval(P1, p) / poly_eval(Q1, p));
  const Expr g2 = sqrt(-2.0 * log(q)), xs2 = q - 0.25;
  const Expr y_mid = g2 / (y2 + poly_eval(P2, xs2) / poly_eval(Q2, xs2));
  const Expr x = sqrt(-log(q));
  auto tail = [&](double y_k, const auto& P, const auto& Q, double shift) {
    const Expr xs = x - shift;
    return y_k * x + (poly_eval(P, xs) / poly_eval(Q, xs)) * x;
  };
  const Expr y_tail =
      ifelse(x < 3.0, tail(y3, P3, Q3, 1.125),
             ifelse(x < 6.0, tail(y4, P4, Q4, 3.0),
                    ifelse(x < 18.0, tail(y5, P5, Q5, 6.0), ifelse(x < 44.0, tail(y6, P6, Q6, 18.0), tail(y7, P7, Q7, 44.0)))));
  return ifelse(p <= 0.5, y_small, ifelse(q >= 0.25, y_mid, y_tail));
}

/// erfInv(u) for u in (-1, 1) (MSL gives ±inf at ±1).
inline Expr erf_inv(const Expr& u) {
  const Expr negative = u < 0.0;
  const Expr p = ifelse(negative, -u, u);
  const Expr y = erf_inv_util(p, 1.0 - p);
  return ifelse(negative, -y, y);
}

/// Modelica.Math.Distributions.Normal.quantile(u, mu, sigma) = mu + sigma·sqrt(2)·erfInv(2u - 1).
inline Expr normal_quantile(const Expr& u, const Expr& mu, const Expr& sigma) {
  return mu + sigma * std::sqrt(2.0) * erf_inv(2.0 * u - 1.0);
}

}  // namespace msl_special

/// Normal noise (MSL Blocks.Noise.NormalNoise): at startTime and every
/// samplePeriod after, MSL's Normal.quantile(r_raw, mu, sigma) of the next
/// number r_raw in (0, 1] of MSL's stream (one number per sample, inverted
/// through MSL's erfInv), held in between (y_off before startTime); see
/// PartialNoise. r_raw = 1 (probability 2^-53) gives +inf, as in MSL.
struct NormalNoise : PartialNoise {
  Parameter mu = parameter("mu", 0.0);
  Parameter sigma = parameter("sigma", 1.0, {.min = 0});

  explicit NormalNoise(std::string name) : PartialNoise(std::move(name)) {
    draw(msl_special::normal_quantile(raw_number(), mu, sigma));
  }
};

}  // namespace acausal::blocks
