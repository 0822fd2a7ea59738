/* SPDX-License-Identifier: MIT */
/* Which sanitizer this test is built with, the one place that asks (gcc defines __SANITIZE_*__, clang
 * answers __has_feature): PMU_SANITIZED under AddressSanitizer or ThreadSanitizer (their allocators are
 * not glibc's: an allocation-failure injection or a heap measure does not see them), PMU_TSAN under
 * ThreadSanitizer. */
#ifndef PMU_TEST_SANITIZER_H
#define PMU_TEST_SANITIZER_H

#if defined(__SANITIZE_THREAD__)
#define PMU_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PMU_TSAN 1
#endif
#endif

#if defined(PMU_TSAN) || defined(__SANITIZE_ADDRESS__)
#define PMU_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PMU_SANITIZED 1
#endif
#endif

#endif
