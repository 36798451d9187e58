/* Reads a PNG back with libpng for check_diff_image.py:
 *   png_probe FILE [X Y]...
 * prints "size W H", "blue X0 Y0 X1 Y1 N" (the box of the pure blue pixels,
 * (0,0,255), and how many there are; "blue none" when there are none) and
 * "pixel X Y R G B" for each point asked for. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 2 || argc % 2) {
        fprintf(stderr, "usage: png_probe FILE [X Y]...\n");
        return 2;
    }
    png_image img = {0};
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, argv[1])) {
        fprintf(stderr, "png_probe: %s: %s\n", argv[1], img.message);
        return 1;
    }
    img.format = PNG_FORMAT_RGB;
    png_bytep px = malloc(PNG_IMAGE_SIZE(img));
    if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
        fprintf(stderr, "png_probe: %s: %s\n", argv[1], img.message);
        return 1;
    }
    unsigned w = img.width, h = img.height, n = 0, x0 = w, y0 = h, x1 = 0, y1 = 0;
    printf("size %u %u\n", w, h);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            png_bytep p = px + ((size_t)y * w + x) * 3;
            if (p[0] == 0 && p[1] == 0 && p[2] == 255) {
                n++;
                x0 = x < x0 ? x : x0;
                y0 = y < y0 ? y : y0;
                x1 = x > x1 ? x : x1;
                y1 = y > y1 ? y : y1;
            }
        }
    if (n)
        printf("blue %u %u %u %u %u\n", x0, y0, x1, y1, n);
    else
        printf("blue none\n");
    for (int i = 2; i + 1 < argc; i += 2) {
        unsigned x = (unsigned)atoi(argv[i]), y = (unsigned)atoi(argv[i + 1]);
        if (x >= w || y >= h) {
            printf("pixel %u %u outside\n", x, y);
            continue;
        }
        png_bytep p = px + ((size_t)y * w + x) * 3;
        printf("pixel %u %u %u %u %u\n", x, y, p[0], p[1], p[2]);
    }
    free(px);
    return 0;
}
