#include "app/commands.h"

int main(int argc, char** argv) { return adacloth::runCli(argc, argv); }
