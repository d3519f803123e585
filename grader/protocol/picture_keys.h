// grader/protocol/picture_keys.h — the pictures a report may carry, named
// once: the judge draws them (grader/judge/pictures.c, with the scripts of
// grader/pictures/) and the kit's tests look for them (tests/pictures.sh
// reads this file).
//
// Picture P is written into the folder the judge is given (--pictures DIR,
// `make check` gives build/reports/lab<N>/) as DIR/P.<extension> in each
// format F, and the JSON report names each file it wrote under the key
// "P_F" of its "pictures" object (keys absent when not written); its
// "picture_notes" object says under "P" what the picture shows, or why it was
// not drawn.
#ifndef STENCIL_PICTURE_KEYS_H
#define STENCIL_PICTURE_KEYS_H

// X(picture, what it shows)
#define PICTURES(X) \
    X(heatmap,  "a failing case's worst z plane: each cell's |got - want| over the tolerance, cells never written, NaN and boundary cells in colours of their own") \
    X(roofline, "the timed case on a roofline: the copy bandwidth measured in the same run as the roof, the book's and the measured OP/B, the kernel's GFLOP/s")

// X(format, file extension)
#define PICTURE_FORMATS(X) \
    X(png,  "png") \
    X(svg,  "svg") \
    X(data, "dat")

#endif // STENCIL_PICTURE_KEYS_H
