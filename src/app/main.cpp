#include "app/commands.h"
#include "app/memory_policy.h"

int main(int argc, char** argv) {
  adacloth::keepFreedMemoryForReuse();
  return adacloth::runCli(argc, argv);
}
