// One Catch2 test case per entry of tests/regression/scenes.json, named "scene <name>" and tagged [regression] (so
// `ctest -L regression` runs them and `ctest -R <name>` picks one). They are registered when the test program
// starts, from the list itself: adding a scene needs no code. With ADACLOTH_REFRESH_REGRESSION=1 they rewrite the
// references instead of comparing (tools/refresh-regression.sh).
#include <catch2/catch.hpp>
#include <cstdio>

#include "regression/scene_list.h"
#include "regression/scene_runner.h"

namespace adacloth::regression {
namespace {

void report(const SceneOutcome& outcome) {
  for (const std::string& note : outcome.notes) std::printf("%s\n", note.c_str());
  std::fflush(stdout);
  for (const std::string& failure : outcome.failures) FAIL_CHECK(failure);
}

class SceneTest : public Catch::ITestInvoker {
 public:
  explicit SceneTest(SceneSpec scene) : scene_(std::move(scene)) {}
  void invoke() const override { report(refreshRequested() ? refreshScene(scene_) : checkScene(scene_)); }

 private:
  SceneSpec scene_;
};

// A broken scenes.json becomes one failing test with the InputError's message, instead of a crash at start-up.
class BrokenListTest : public Catch::ITestInvoker {
 public:
  explicit BrokenListTest(std::string message) : message_(std::move(message)) {}
  void invoke() const override { FAIL(message_); }

 private:
  std::string message_;
};

void registerTest(Catch::ITestInvoker* invoker, const std::string& name) {
  const Catch::AutoReg registration(invoker, Catch::SourceLineInfo(__FILE__, static_cast<std::size_t>(__LINE__)), "",
                                    Catch::NameAndTags(name, "[regression][scene]"));
}

bool registerScenes() {
  try {
    for (SceneSpec& scene : loadSceneList(regressionDir() / "scenes.json", ADACLOTH_SOURCE_DIR)) {
      const std::string name = "scene " + scene.name;
      registerTest(new SceneTest(std::move(scene)), name);
    }
  } catch (const std::exception& e) {
    registerTest(new BrokenListTest(e.what()), "scene list");
  }
  return true;
}

const bool registered = registerScenes();

}  // namespace
}  // namespace adacloth::regression
