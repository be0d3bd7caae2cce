#pragma once
// How the process's allocator treats freed memory: a policy of the program (its main()), not of the library.

namespace adacloth {

// Keeps freed memory in the process for reuse instead of returning it to the kernel.
//
// A step frees and allocates again buffers of the same sizes (the contact candidates, the swept boxes, the trees, the
// solve's vectors). glibc's defaults serve an allocation above 128 KiB with its own mapping and give the top of the
// heap back once 128 KiB are free there, so each step touched fresh pages again: the page faults were 15 % of the
// frame of a free-falling sheet of 80,000 faces (the kernel's share of its samples), and the frame took 1.3x as
// long. After this call allocations up to 32 MiB (glibc's largest threshold) come from the heap, and up to 1 GiB
// of free memory at its top is kept. What the process holds at its peak is unchanged; it is not given back before
// the process ends. Returns false where the allocator is not glibc's or refused (the sanitizers' allocators).
bool keepFreedMemoryForReuse();

}  // namespace adacloth
