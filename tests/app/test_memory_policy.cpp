// The process's memory policy: freed blocks stay in the process for the next step's buffers.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "app/memory_policy.h"

using namespace adacloth;

#if defined(__SANITIZE_ADDRESS__)
#define ADACLOTH_OWN_ALLOCATOR 1  // the sanitizers replace malloc: the policy has nothing to set
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ADACLOTH_OWN_ALLOCATOR 1
#endif
#endif

TEST_CASE("a freed 16 MiB block stays in the process after keepFreedMemoryForReuse", "[app]") {
#if defined(__GLIBC__) && !defined(ADACLOTH_OWN_ALLOCATOR)
  REQUIRE(keepFreedMemoryForReuse());
  // glibc's defaults would have mapped the block on its own (above 128 KiB) and unmapped it when freed; a 16 MiB
  // buffer is the size of a fine sheet's contact candidates.
  constexpr size_t kBlock = size_t(16) << 20;
  void* block = std::malloc(kBlock);
  REQUIRE(block != nullptr);
  std::memset(block, 1, kBlock);  // touched, as a buffer is
  static void* volatile used;     // so that the compiler keeps the allocation
  used = block;
  REQUIRE(used == block);
  const size_t heldBefore = mallinfo2().fordblks;
  std::free(block);
  const size_t heldAfter = mallinfo2().fordblks;
  CHECK(heldAfter >= heldBefore + kBlock);
#else
  WARN("not glibc's allocator: keepFreedMemoryForReuse() has nothing to set");
  CHECK_FALSE(keepFreedMemoryForReuse());
#endif
}
