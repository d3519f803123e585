// grader/emu/translate/emu_translate.cpp — rewrites one CUDA C file so that a
// host C++17 compiler can build it against the emulation backend's headers.
//
//   emu-translate INPUT.cu OUTPUT.cu
//
// Four rewrites, each on the lines where the original text stands (so the
// `#line 1 "INPUT"` the output starts with keeps every line number right):
//
//   kernel<<<grid, block[, shmem[, stream]]>>>(args)
//     -> kernel | ::emu::launch_site{__FILE__, __LINE__, "kernel"}(grid, block...)(args)
//   __shared__ T name[...];
//     -> typedef T emu_shared_type_0[...]; static emu_shared_type_0 &name = ::emu_shared_allocate<...>(...);
//   extern __shared__ T name[];
//     -> T (*const name) = ::emu_dynamic_shared_as<decltype(name)>();
//   return;  and the closing brace, inside __global__ functions
//     -> return ::emu_kernel_exit(__FILE__, line);   (where a thread left the kernel)
//   cudaLaunchKernel((const void *)kernel, ...)
//     -> (::emu::next_launch_name("kernel"), cudaLaunchKernel(kernel, ...))
//                                                     (the kernel's parameter types kept, the launch named)
//
// Comments, string and character literals (raw strings included) are never
// touched, so a `<<<` inside them is left alone. Exit status: 0, 1 when the
// input cannot be translated (a message names the line), 2 on usage errors.
#include <cstdint>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <vector>

// ---------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------

enum token_kind {
    TOKEN_SPACE,       // blanks and newlines
    TOKEN_COMMENT,     // // or /* */
    TOKEN_STRING,      // "..." or a raw string, with its prefix
    TOKEN_CHAR,        // '...'
    TOKEN_IDENT,       // identifier or keyword
    TOKEN_NUMBER,      // numeric literal
    TOKEN_PUNCT        // operator or punctuator ("<<<", runs of '>', "::", "->" are one token each)
};

struct token {
    token_kind kind;   // what it is
    size_t start;      // offset of its first byte in the source
    size_t end;        // one past its last byte
    int line;          // line of its first byte (1-based)
    bool directive;    // part of a preprocessor directive
};

struct source {
    std::string path;           // as given on the command line
    std::string text;           // the whole file
    std::vector<token> tokens;  // every byte belongs to exactly one token
};

// An edit: replace text[start, end) with insert.
struct edit {
    size_t start;               // first byte replaced
    size_t end;                 // one past the last byte replaced (== start: pure insertion)
    std::string insert;         // replacement
};

// Prints "path:line: error: message" and exits with status 1.
[[noreturn]] static void fail_at(const source &src, int line, const std::string &message)
{
    fprintf(stderr, "%s:%d: error: %s\n", src.path.c_str(), line, message.c_str());
    exit(1);
}

// True when c may continue an identifier.
static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

// Length of the quoted literal starting at i (quote is ' or "), escapes honoured.
static size_t quoted_length(const std::string &s, size_t i, char quote)
{
    size_t j = i + 1;
    while (j < s.size() && s[j] != quote && s[j] != '\n') {
        if (s[j] == '\\' && j + 1 < s.size())
            j++;
        j++;
    }
    return (j < s.size() && s[j] == quote ? j + 1 : j) - i;
}

// Length of the raw string whose opening quote is at i (R"delim( ... )delim"), or 0.
static size_t raw_string_length(const std::string &s, size_t quote)
{
    size_t open = s.find('(', quote);
    if (open == std::string::npos || open - quote > 17)
        return 0;
    std::string closing = ")" + s.substr(quote + 1, open - quote - 1) + "\"";
    size_t close = s.find(closing, open);
    return close == std::string::npos ? s.size() - quote : close + closing.size() - quote;
}

// Length of the raw-string prefix (R, u8R, uR, UR, LR) at i followed by a quote, or 0.
static size_t raw_prefix_length(const std::string &s, size_t i)
{
    static const char *const prefixes[] = {"R\"", "u8R\"", "uR\"", "UR\"", "LR\""};
    for (const char *p : prefixes)
        if (s.compare(i, strlen(p), p) == 0)
            return strlen(p) - 1;
    return 0;
}

// Length of the punctuator at i.
static size_t punct_length(const std::string &s, size_t i)
{
    if (s.compare(i, 3, "<<<") == 0)
        return 3;
    if (s[i] == '>') {
        size_t j = i;
        while (j < s.size() && s[j] == '>')
            j++;
        return j - i;
    }
    if (s.compare(i, 2, "::") == 0 || s.compare(i, 2, "->") == 0)
        return 2;
    return 1;
}

// Length of the token starting at i, and its kind.
static size_t token_length(const std::string &s, size_t i, token_kind *kind)
{
    char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' ||
        (c == '\\' && i + 1 < s.size() && s[i + 1] == '\n')) {
        size_t j = i;
        while (j < s.size() && (strchr(" \t\r\f\v\n", s[j]) || (s[j] == '\\' && j + 1 < s.size() && s[j + 1] == '\n')))
            j += s[j] == '\\' ? 2 : 1;
        *kind = TOKEN_SPACE;
        return j - i;
    }
    if (s.compare(i, 2, "//") == 0) {
        size_t j = i;
        while (j < s.size() && s[j] != '\n')
            j += (s[j] == '\\' && j + 1 < s.size()) ? 2 : 1;
        *kind = TOKEN_COMMENT;
        return j - i;
    }
    if (s.compare(i, 2, "/*") == 0) {
        size_t j = s.find("*/", i + 2);
        *kind = TOKEN_COMMENT;
        return (j == std::string::npos ? s.size() : j + 2) - i;
    }
    size_t raw = raw_prefix_length(s, i);
    if (raw) {
        *kind = TOKEN_STRING;
        return raw + raw_string_length(s, i + raw);
    }
    if (c == '"' || c == '\'') {
        *kind = c == '"' ? TOKEN_STRING : TOKEN_CHAR;
        return quoted_length(s, i, c);
    }
    if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '9')) {
        size_t j = i;
        while (j < s.size() && (ident_char(s[j]) || s[j] == '.' || s[j] == '\'' ||
                                ((s[j] == '+' || s[j] == '-') && strchr("eEpP", s[j - 1]))))
            j++;
        *kind = TOKEN_NUMBER;
        return j - i;
    }
    if (ident_char(c)) {
        size_t j = i;
        while (j < s.size() && ident_char(s[j]))
            j++;
        *kind = TOKEN_IDENT;
        return j - i;
    }
    *kind = TOKEN_PUNCT;
    return punct_length(s, i);
}

// Splits src.text into tokens, marking those inside preprocessor directives.
static void tokenize(source &src)
{
    const std::string &s = src.text;
    size_t i = 0;
    int line = 1;
    bool line_start = true, directive = false;
    while (i < s.size()) {
        token t;
        t.start = i;
        t.end = i + token_length(s, i, &t.kind);
        t.line = line;
        if (t.kind == TOKEN_PUNCT && s[i] == '#' && line_start)
            directive = true;
        t.directive = directive;
        for (size_t j = t.start; j < t.end; j++) {
            if (s[j] != '\n')
                continue;
            line++;
            if (j == 0 || s[j - 1] != '\\')
                directive = false;
        }
        if (t.kind == TOKEN_SPACE && memchr(s.data() + t.start, '\n', t.end - t.start))
            line_start = true;
        else if (t.kind != TOKEN_SPACE && t.kind != TOKEN_COMMENT)
            line_start = false;
        src.tokens.push_back(t);
        i = t.end;
    }
}

// ---------------------------------------------------------------------------
// Walking tokens
// ---------------------------------------------------------------------------

// The text of token i.
static std::string text_of(const source &src, size_t i)
{
    const token &t = src.tokens[i];
    return src.text.substr(t.start, t.end - t.start);
}

// True when token i is code (not blank, not a comment).
static bool is_code(const source &src, size_t i)
{
    return src.tokens[i].kind != TOKEN_SPACE && src.tokens[i].kind != TOKEN_COMMENT;
}

// True when token i is the punctuator or identifier p.
static bool is(const source &src, size_t i, const char *p)
{
    const token &t = src.tokens[i];
    return (t.kind == TOKEN_PUNCT || t.kind == TOKEN_IDENT) && t.end - t.start == strlen(p) &&
           src.text.compare(t.start, t.end - t.start, p) == 0;
}

// The next code token after i, or tokens.size().
static size_t next_code(const source &src, size_t i)
{
    for (i++; i < src.tokens.size(); i++)
        if (is_code(src, i))
            return i;
    return src.tokens.size();
}

// The previous code token before i, or SIZE_MAX.
static size_t prev_code(const source &src, size_t i)
{
    while (i-- > 0)
        if (is_code(src, i))
            return i;
    return SIZE_MAX;
}

// Change of bracket depth token i makes: +1 for ( [ {, -1 for ) ] }.
static int depth_change(const source &src, size_t i)
{
    if (src.tokens[i].kind != TOKEN_PUNCT)
        return 0;
    char c = src.text[src.tokens[i].start];
    return (c == '(' || c == '[' || c == '{') ? 1 : (c == ')' || c == ']' || c == '}') ? -1 : 0;
}

// Escapes s for a C string literal.
static std::string c_escape(const std::string &s)
{
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

// Escapes s for a C string literal, collapsing runs of blanks.
static std::string c_string(const std::string &s)
{
    std::string out;
    bool blank = false;
    for (char c : s) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            blank = !out.empty();
            continue;
        }
        if (blank)
            out += ' ';
        blank = false;
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

// ---------------------------------------------------------------------------
// Launches
// ---------------------------------------------------------------------------

// The first token of the kernel expression that ends just before token
// `launch` (the <<<): names, ::, template arguments, member access, an index
// or a call (table[k], get_kernel(k)), or a parenthesised expression
// ((k == 1 ? a : b)).
static size_t kernel_expression_start(const source &src, size_t launch)
{
    size_t i = prev_code(src, launch), start = launch;
    while (i != SIZE_MAX) {
        if (src.tokens[i].kind == TOKEN_PUNCT && src.text[src.tokens[i].start] == '>') {
            int angles = 0, brackets = 0;
            for (; i != SIZE_MAX; i = prev_code(src, i)) {
                if (src.tokens[i].kind == TOKEN_PUNCT && src.text[src.tokens[i].start] == '>' && !brackets)
                    angles += (int)(src.tokens[i].end - src.tokens[i].start);
                else if (is(src, i, "<") && !brackets)
                    angles--;
                else
                    brackets -= depth_change(src, i);
                if (angles == 0 && brackets == 0)
                    break;
            }
            if (i == SIZE_MAX)
                break;
            start = i;
            i = prev_code(src, i);
            continue;
        }
        if (is(src, i, "]") || is(src, i, ")")) {  // an index, a call or a parenthesised expression
            int depth = 0;
            size_t j = i;
            for (; j != SIZE_MAX; j = prev_code(src, j)) {
                depth -= depth_change(src, j);
                if (depth == 0)
                    break;
            }
            if (j == SIZE_MAX)
                break;
            start = j;
            size_t before = prev_code(src, j);
            int continues = before != SIZE_MAX &&
                            (src.tokens[before].kind == TOKEN_IDENT || is(src, before, "]") || is(src, before, ")") ||
                             (src.tokens[before].kind == TOKEN_PUNCT && src.text[src.tokens[before].start] == '>'));
            if (!continues)
                break;  // (expression)<<<...>>>: the group is the kernel
            i = before;  // table[k]<<<, get_kernel(k)<<<: the name before the group
            continue;
        }
        if (src.tokens[i].kind != TOKEN_IDENT)
            break;
        start = i;
        size_t before = prev_code(src, i);
        if (before == SIZE_MAX || !(is(src, before, "::") || is(src, before, ".") || is(src, before, "->")))
            break;
        start = before;
        i = prev_code(src, before);
    }
    return start;
}

// Finds the >>> closing the launch opened at token `launch`; returns the
// token holding it (its last three characters).
static size_t launch_config_end(const source &src, size_t launch)
{
    int depth = 0;
    for (size_t i = next_code(src, launch); i < src.tokens.size(); i = next_code(src, i)) {
        depth += depth_change(src, i);
        if (depth < 0)
            break;
        const token &t = src.tokens[i];
        if (depth == 0 && t.kind == TOKEN_PUNCT && src.text[t.start] == '>' && t.end - t.start >= 3)
            return i;
        if (is(src, i, ";"))
            break;
    }
    fail_at(src, src.tokens[launch].line, "'<<<' without a matching '>>>'");
}

// Rewrites every kernel<<<...>>>(...) launch.
static void rewrite_launches(const source &src, std::vector<edit> &edits)
{
    for (size_t i = 0; i < src.tokens.size(); i++) {
        if (!is(src, i, "<<<"))
            continue;
        size_t start = kernel_expression_start(src, i);
        std::string name = start < i ? c_string(src.text.substr(src.tokens[start].start,
                                                                src.tokens[prev_code(src, i)].end -
                                                                    src.tokens[start].start))
                                     : "kernel";
        size_t end = launch_config_end(src, i);
        if (start == i)
            fail_at(src, src.tokens[i].line, "'<<<' does not follow a kernel name");
        edits.push_back({src.tokens[i].start, src.tokens[i].end,
                         " | ::emu::launch_site{__FILE__, __LINE__, \"" + name + "\"}("});
        edits.push_back({src.tokens[end].end - 3, src.tokens[end].end, ")"});
    }
}

// ---------------------------------------------------------------------------
// __shared__ declarations
// ---------------------------------------------------------------------------

// A declarator of a __shared__ declaration.
struct declarator {
    size_t first;      // its first token
    size_t last;       // its last token
    size_t name;       // the token naming the variable
};

// The token ending the statement that token i is in (the ; at depth 0).
static size_t statement_end(const source &src, size_t i)
{
    int depth = 0;
    for (size_t j = i; j < src.tokens.size(); j = next_code(src, j)) {
        depth += depth_change(src, j);
        if (depth < 0)
            break;
        if (depth == 0 && is(src, j, ";"))
            return j;
    }
    fail_at(src, src.tokens[i].line, "__shared__ declaration without a ';'");
}

// The first token of the declaration holding token i: after the previous
// ; { } or : at depth 0 (or a directive line).
static size_t statement_start(const source &src, size_t i)
{
    size_t j = i;
    for (size_t k = prev_code(src, i); k != SIZE_MAX; k = prev_code(src, k)) {
        if (is(src, k, ";") || is(src, k, "{") || is(src, k, "}") || is(src, k, ":") || src.tokens[k].directive)
            break;
        j = k;
    }
    return j;
}

// Splits the declarators of the declaration whose specifiers end at token
// `from` (exclusive) and which ends at `end` (the ;).
static std::vector<declarator> split_declarators(const source &src, size_t from, size_t end)
{
    std::vector<declarator> out;
    declarator d = {next_code(src, from), 0, SIZE_MAX};
    int depth = 0, angles = 0;
    bool seen_bracket = false, seen_init = false;
    for (size_t j = d.first; j <= end; j = next_code(src, j)) {
        bool top = depth == 0 && angles == 0;
        if (j == end || (top && is(src, j, ","))) {
            if (d.name == SIZE_MAX)
                fail_at(src, src.tokens[from].line, "cannot find the name this __shared__ declaration declares");
            d.last = prev_code(src, j);
            out.push_back(d);
            d = {next_code(src, j), 0, SIZE_MAX};
            seen_bracket = seen_init = false;
            continue;
        }
        if (depth == 0 && is(src, j, "["))
            seen_bracket = true;
        if (top && is(src, j, "="))
            seen_init = true;
        if (depth == 0 && is(src, j, "<") && src.tokens[prev_code(src, j)].kind == TOKEN_IDENT)
            angles++;
        else if (depth == 0 && angles > 0 && src.tokens[j].kind == TOKEN_PUNCT && src.text[src.tokens[j].start] == '>')
            angles -= std::min(angles, (int)(src.tokens[j].end - src.tokens[j].start));
        else if (top && !seen_bracket && !seen_init && src.tokens[j].kind == TOKEN_IDENT)
            d.name = j;
        depth += depth_change(src, j);
    }
    return out;
}

// Rewrites extern __shared__ T name[]...; into pointers to the dynamic shared memory.
static void rewrite_extern_shared(const source &src, size_t shared, size_t extern_token, size_t end,
                                  std::vector<edit> &edits)
{
    edits.push_back({src.tokens[extern_token].start, src.tokens[extern_token].end, ""});
    edits.push_back({src.tokens[shared].start, src.tokens[shared].end, ""});
    for (const declarator &d : split_declarators(src, shared, end)) {
        size_t open = next_code(src, d.name), close = open < src.tokens.size() ? next_code(src, open) : open;
        std::string name = text_of(src, d.name);
        if (open > d.last || !is(src, open, "["))
            fail_at(src, src.tokens[d.name].line, "extern __shared__ " + name + " must be an array: name[]");
        while (close <= d.last && !is(src, close, "]"))
            close = next_code(src, close);
        edits.push_back({src.tokens[d.name].start, src.tokens[close].end, "(*const " + name + ")"});
        edits.push_back({src.tokens[d.last].end, src.tokens[d.last].end,
                         " = ::emu_dynamic_shared_as<decltype(" + name + ")>()"});
    }
}

// Rewrites __shared__ T a[..], b; into a typedef of each variable's type and
// a static reference to storage the runtime allocates (ASan guards it,
// poisons it with NaN bytes at every block start, counts its size).
static void rewrite_static_shared(const source &src, size_t shared, size_t static_token, size_t end,
                                  std::vector<edit> &edits, int *counter)
{
    int line = src.tokens[shared].line;
    std::string bindings;
    if (static_token != SIZE_MAX)
        edits.push_back({src.tokens[static_token].start, src.tokens[static_token].end, ""});
    edits.push_back({src.tokens[shared].start, src.tokens[shared].end, "typedef"});
    for (const declarator &d : split_declarators(src, shared, end)) {
        std::string name = text_of(src, d.name), type = "emu_shared_type_" + std::to_string((*counter)++);
        edits.push_back({src.tokens[d.name].start, src.tokens[d.name].end, type});
        bindings += " static " + type + " &" + name + " = ::emu_shared_allocate<" + type + ">(\"" + name +
                    "\", __FILE__, " + std::to_string(line) + ");";
    }
    edits.push_back({src.tokens[end].end, src.tokens[end].end, bindings});
}

// Rewrites every __shared__ declaration.
static void rewrite_shared(const source &src, std::vector<edit> &edits)
{
    int counter = 0;
    for (size_t i = 0; i < src.tokens.size(); i++) {
        if (!is(src, i, "__shared__") || src.tokens[i].directive)
            continue;
        size_t first = statement_start(src, i), end = statement_end(src, i);
        size_t extern_token = SIZE_MAX, static_token = SIZE_MAX;
        for (size_t j = first; j < i; j = next_code(src, j)) {
            if (is(src, j, "extern"))
                extern_token = j;
            if (is(src, j, "static"))
                static_token = j;
        }
        if (extern_token != SIZE_MAX)
            rewrite_extern_shared(src, i, extern_token, end, edits);
        else
            rewrite_static_shared(src, i, static_token, end, edits, &counter);
    }
}

// ---------------------------------------------------------------------------
// Kernel exits
// ---------------------------------------------------------------------------

// The token closing the brace opened at token open.
static size_t matching_brace(const source &src, size_t open)
{
    int depth = 0;
    for (size_t j = open; j < src.tokens.size(); j = next_code(src, j)) {
        if (is(src, j, "{"))
            depth++;
        else if (is(src, j, "}") && --depth == 0)
            return j;
    }
    fail_at(src, src.tokens[open].line, "kernel body without its closing '}'");
}

// Records, in every __global__ function body, where a thread returns.
static void rewrite_kernel_exits(const source &src, std::vector<edit> &edits)
{
    for (size_t i = 0; i < src.tokens.size(); i++) {
        if (!is(src, i, "__global__") || src.tokens[i].directive)
            continue;
        size_t j = next_code(src, i);
        int depth = 0;
        for (; j < src.tokens.size(); j = next_code(src, j)) {
            depth += depth_change(src, j);
            if (depth == 1 && is(src, j, "{"))
                break;
            if (depth == 0 && is(src, j, ";"))
                break;
        }
        if (j >= src.tokens.size() || !is(src, j, "{"))
            continue;
        size_t close = matching_brace(src, j);
        for (size_t k = next_code(src, j); k < close; k = next_code(src, k)) {
            size_t after = next_code(src, k);
            if (is(src, k, "return") && after < close && is(src, after, ";"))
                edits.push_back({src.tokens[k].end, src.tokens[k].end,
                                 " ::emu_kernel_exit(__FILE__, " + std::to_string(src.tokens[k].line) + ")"});
        }
        edits.push_back({src.tokens[close].start, src.tokens[close].start,
                         "::emu_kernel_exit(__FILE__, " + std::to_string(src.tokens[close].line) + "); "});
        i = close;
    }
}

// ---------------------------------------------------------------------------
// cudaLaunchKernel((const void *)kernel, ...)
// ---------------------------------------------------------------------------

// The token after a cast to a void pointer that starts at i, written
// (void *), (const void *) or reinterpret_cast<const void *> / static_cast<...>,
// or i itself when there is none.
static size_t after_void_pointer_cast(const source &src, size_t i)
{
    size_t n = src.tokens.size();
    bool bracket = i < n && is(src, i, "(");
    bool named = i < n && (is(src, i, "reinterpret_cast") || is(src, i, "static_cast"));
    if (!bracket && !named)
        return i;
    size_t j = next_code(src, i);
    if (named) {
        if (j >= n || !is(src, j, "<"))
            return i;
        j = next_code(src, j);
    }
    bool seen_void = false, seen_star = false;
    for (; j < n; j = next_code(src, j)) {
        if (is(src, j, "const"))
            continue;
        if (!seen_void && is(src, j, "void"))
            seen_void = true;
        else if (seen_void && !seen_star && is(src, j, "*"))
            seen_star = true;
        else
            break;
    }
    if (!seen_star || j >= n || !is(src, j, bracket ? ")" : ">"))
        return i;
    return next_code(src, j);
}

// The token that ends the call argument starting at i: the ',' or ')' at its
// own depth (a template's angle brackets after a name count as depth), or
// tokens.size().
static size_t argument_end(const source &src, size_t i)
{
    int depth = 0, angle = 0;
    for (size_t j = i; j < src.tokens.size(); j = next_code(src, j)) {
        if (depth == 0 && angle == 0 && (is(src, j, ",") || is(src, j, ")")))
            return j;
        depth += depth_change(src, j);
        size_t before = prev_code(src, j);
        if (is(src, j, "<") && before != SIZE_MAX && src.tokens[before].kind == TOKEN_IDENT)
            angle++;
        else if (angle > 0 && src.tokens[j].kind == TOKEN_PUNCT && src.text[src.tokens[j].start] == '>')
            angle = std::max(0, angle - (int)(src.tokens[j].end - src.tokens[j].start));
        if (depth < 0)
            return j;
    }
    return src.tokens.size();
}

// In a call of cudaLaunchKernel or cudaLaunchCooperativeKernel: drops a cast
// to a void pointer in front of the kernel, so that the emulation's overload
// for the kernel itself (whose parameter types say how to read args) is the
// one called; and, outside preprocessor directives, wraps the call as
//   (::emu::next_launch_name("kernel"), cudaLaunchKernel(...))
// so that the launch is named after the kernel as written (as a <<<...>>>
// launch is: a static kernel has no symbol to name it).
static void rewrite_launch_kernel_casts(const source &src, std::vector<edit> &edits)
{
    for (size_t i = 0; i < src.tokens.size(); i++) {
        if (!is_code(src, i) || !(is(src, i, "cudaLaunchKernel") || is(src, i, "cudaLaunchCooperativeKernel")))
            continue;
        size_t before = prev_code(src, i);
        if (before != SIZE_MAX && (is(src, before, "::") || is(src, before, ".") || is(src, before, "->")))
            continue;  // a qualified name or a member: not the runtime's call
        size_t open = next_code(src, i);
        if (open >= src.tokens.size() || !is(src, open, "("))
            continue;
        size_t first = next_code(src, open);
        if (first >= src.tokens.size())
            continue;
        size_t rest = after_void_pointer_cast(src, first);
        if (rest >= src.tokens.size())
            continue;
        if (rest != first)
            edits.push_back({src.tokens[first].start, src.tokens[rest].start, ""});
        size_t end = argument_end(src, rest), close = next_code(src, open);
        while (close < src.tokens.size() && !is(src, close, ")")) {  // the call's own ')': past each argument
            size_t next = is(src, close, ",") ? next_code(src, close) : argument_end(src, close);
            close = next > close ? next : src.tokens.size();
        }
        if (src.tokens[i].directive || end >= src.tokens.size() || close >= src.tokens.size() || !is(src, close, ")") ||
            src.tokens[close].directive || end == rest)
            continue;
        std::string name = src.text.substr(src.tokens[rest].start, src.tokens[prev_code(src, end)].end - src.tokens[rest].start);
        edits.push_back({src.tokens[i].start, src.tokens[i].start, "(::emu::next_launch_name(\"" + c_string(name) + "\"), "});
        edits.push_back({src.tokens[close].end, src.tokens[close].end, ")"});
    }
}

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

// Reads the whole file at path into out; returns false when it cannot.
static bool read_file(const char *path, std::string &out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char buffer[65536];
    size_t n;
    while ((n = fread(buffer, 1, sizeof(buffer), f)) > 0)
        out.append(buffer, n);
    bool ok = !ferror(f);
    fclose(f);
    return ok;
}

// Applies the edits (sorted, non-overlapping) to src.text.
static std::string apply_edits(const source &src, std::vector<edit> &edits)
{
    std::stable_sort(edits.begin(), edits.end(), [](const edit &a, const edit &b) { return a.start < b.start; });
    std::string out;
    size_t at = 0;
    for (const edit &e : edits) {
        out.append(src.text, at, e.start - at);
        out += e.insert;
        at = e.end;
    }
    out.append(src.text, at, std::string::npos);
    return out;
}

// Writes text to path through a temporary file; returns false on failure.
static bool write_file(const char *path, const std::string &text)
{
    std::string temporary = std::string(path) + ".tmp";
    FILE *f = fopen(temporary.c_str(), "wb");
    if (!f)
        return false;
    bool ok = fwrite(text.data(), 1, text.size(), f) == text.size();
    ok = fclose(f) == 0 && ok;
    return ok && rename(temporary.c_str(), path) == 0;
}

// Translates INPUT into OUTPUT; exit status as the header says.
int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: emu-translate INPUT.cu OUTPUT.cu\n");
        return 2;
    }
    source src;
    src.path = argv[1];
    if (!read_file(argv[1], src.text)) {
        fprintf(stderr, "emu-translate: cannot read %s\n", argv[1]);
        return 2;
    }
    char absolute[PATH_MAX];
    std::string shown = realpath(argv[1], absolute) ? absolute : argv[1];
    tokenize(src);
    std::vector<edit> edits;
    rewrite_launches(src, edits);
    rewrite_shared(src, edits);
    rewrite_kernel_exits(src, edits);
    rewrite_launch_kernel_casts(src, edits);
    std::string out = "#line 1 \"" + c_escape(shown) + "\"\n" + apply_edits(src, edits);
    if (!src.text.empty() && src.text.back() != '\n')
        out += '\n';
    if (!write_file(argv[2], out)) {
        fprintf(stderr, "emu-translate: cannot write %s\n", argv[2]);
        return 2;
    }
    return 0;
}
