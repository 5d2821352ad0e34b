// Result::write_mat: the Modelica MAT v4 result layout, read back byte by byte (issue 36, item 8).
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

namespace test_mat {

using namespace acausal;

namespace {

struct Matrix {
  std::int32_t type = 0, rows = 0, cols = 0;
  std::string bytes;
};

// A tiny MAT v4 reader: little-endian, real matrices.
std::map<std::string, Matrix> read_mat4(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::map<std::string, Matrix> out;
  std::size_t at = 0;
  while (at + 20 <= all.size()) {
    std::int32_t h[5];
    std::memcpy(h, all.data() + at, sizeof h);
    at += sizeof h;
    const std::string name(all.data() + at, h[4] - 1);
    at += h[4];
    const std::size_t size = h[0] == 0 ? 8 : h[0] == 20 ? 4 : 1;
    Matrix m{h[0], h[1], h[2], all.substr(at, size * h[1] * h[2])};
    at += m.bytes.size();
    out[name] = m;
  }
  REQUIRE(at == all.size());
  return out;
}

}  // namespace

TEST_CASE("write_mat writes the Modelica MAT v4 result layout", "[results]") {
  Model m("free_pair");
  auto& inertia1 = m.add<rotational::Inertia>("inertia1", {{"J", 2.0}});
  auto& spring = m.add<rotational::Spring>("spring", {{"c", 400.0}});
  auto& inertia2 = m.add<rotational::Inertia>("inertia2", {{"J", 0.5}});
  m.connect(inertia1.flange_b, spring.flange_a);
  m.connect(spring.flange_b, inertia2.flange_a);
  m.set_start("inertia1.phi", 0.0);
  m.set_start("inertia1.w", 1.0);
  m.set_start("inertia2.phi", 0.1);
  m.set_start("inertia2.w", 0.0);
  Simulator sim = m.compile();
  SimulationOptions o;
  o.t_end = 0.5;
  Result r = sim.simulate(o);
  const std::string path = (std::filesystem::temp_directory_path() / "acausal_test_write_mat.mat").string();
  r.write_mat(path);
  auto mat = read_mat4(path);
  std::filesystem::remove(path);
  for (const char* name : {"Aclass", "name", "description", "dataInfo", "data_1", "data_2"}) REQUIRE(mat.count(name));
  const Matrix& aclass = mat["Aclass"];
  CHECK(aclass.type == 51);
  REQUIRE(aclass.rows == 4);
  std::string first, last;  // rows 0 and 3, column-major
  for (int c = 0; c < aclass.cols; ++c) {
    first += aclass.bytes[c * 4];
    last += aclass.bytes[c * 4 + 3];
  }
  CHECK(first == "Atrajectory");
  CHECK(last.substr(0, 8) == "binTrans");
  const Matrix& names = mat["name"];
  const Matrix& info = mat["dataInfo"];
  CHECK(info.type == 20);
  REQUIRE(info.rows == 4);
  REQUIRE(info.cols == names.cols);
  auto name_of = [&](int k) {
    std::string s = names.bytes.substr(static_cast<std::size_t>(k) * names.rows, names.rows);
    return s.substr(0, s.find_last_not_of(' ') + 1);
  };
  auto info_of = [&](int k, int row) {
    std::int32_t v;
    std::memcpy(&v, info.bytes.data() + 4 * (4 * k + row), 4);
    return v;
  };
  CHECK(name_of(0) == "time");
  CHECK(info_of(0, 0) == 0);
  // data_1: one column per instant (t0, then t_end), the time first in each.
  const Matrix& data1 = mat["data_1"];
  REQUIRE(data1.cols == 2);
  auto data1_at = [&](int row, int col) {
    double v;
    std::memcpy(&v, data1.bytes.data() + 8 * (col * data1.rows + row), 8);
    return v;
  };
  CHECK(data1_at(0, 0) == r.time().front());
  CHECK(data1_at(0, 1) == r.time().back());
  for (int row = 1; row < data1.rows; ++row) CHECK(data1_at(row, 0) == data1_at(row, 1));
  const Matrix& data2 = mat["data_2"];
  CHECK(data2.type == 0);
  REQUIRE(data2.cols == static_cast<int>(r.size()));
  int found = -1;
  for (int k = 0; k < names.cols; ++k)
    if (name_of(k) == "inertia2.phi") found = k;
  REQUIRE(found > 0);
  CHECK(info_of(found, 0) == 2);
  const int column = info_of(found, 1) - 1;
  const auto expected = r["inertia2.phi"];
  for (std::size_t row = 0; row < r.size(); ++row) {
    double t, v;
    std::memcpy(&t, data2.bytes.data() + 8 * (row * data2.rows), 8);
    std::memcpy(&v, data2.bytes.data() + 8 * (row * data2.rows + column), 8);
    CHECK(t == r.time()[row]);
    CHECK(v == expected[row]);
  }
}

}  // namespace test_mat
