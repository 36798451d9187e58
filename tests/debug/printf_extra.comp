#version 460
// The formats coopvm reads beyond the Khronos validation layer of Debian 12
// (1.3.239): %c, %s with string literals, signed 64-bit %ld, %lX, 8- and
// 16-bit integers, bool, f16 and f64 arguments, a pointer, and a % that
// starts no specification.  coopvm only (see README.md).
#extension GL_EXT_debug_printf : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 2) in;
layout(std430, set = 0, binding = 0) buffer Out { uint data[]; } o;

void main()
{
    uint i = gl_LocalInvocationIndex;
    int8_t c8 = int8_t(-3 - int(i));
    uint16_t u16 = uint16_t(65535u - i);
    int16_t s16 = int16_t(-300);
    bool b = i == 1u;
    float16_t h = float16_t(2.5) + float16_t(i);
    double d = 1.0lf / 3.0lf + double(i);
    int64_t neg = -5000000000l - int64_t(i);
    uint64_t big = 0xfedcba9876543210ul;
    debugPrintfEXT("chars %c%c%c and %s / %s\n", 72, 105 + int(i), 33, "literal", "two");
    debugPrintfEXT("small %d %u %x %d %u bool %d %u\n", c8, c8, c8, s16, u16, b, b);
    debugPrintfEXT("wide %ld %lX %.3f %.10f %e\n", neg, big, h, d, d);
    debugPrintfEXT("odd %q %5 %v1f %\n", i);
    o.data[i] = i;
}
