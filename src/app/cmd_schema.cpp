#include <cstdio>

#include "app/args.h"
#include "app/commands.h"
#include "config/shot.h"

namespace adacloth {

int runSchemaCommand(int argc, char** argv) {
  Args args("schema", {}, argc, argv, 2);
  args.expectPositionals(0, "no arguments");
  std::fputs(config::toMarkdown(shotSchema(), "Shot file format").c_str(), stdout);
  return 0;
}

}  // namespace adacloth
