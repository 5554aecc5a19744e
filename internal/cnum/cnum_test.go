package cnum

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// strtodTests: what GNU find 4.11 accepts as -mtime arguments (after
// the +/- prefix), which is what glibc's strtod reads whole, short of an
// overflow. An underflow to a subnormal is fine (gnulib's xstrtod; 4.9
// refused it when inexact).
var strtodTests = []struct {
	in   string
	want float64
	ok   bool
}{
	{"1", 1, true}, {" 1", 1, true}, {"\t\v\f\r\n 1", 1, true}, {"+1", 1, true}, {"-1", -1, true},
	{"1e1", 10, true}, {"1E0", 1, true}, {"1.e1", 10, true}, {".5", 0.5, true}, {"5.", 5, true},
	{"0x10", 16, true}, {"0X1P0", 1, true}, {"0x.8", 0.5, true}, {"0x1.8p1", 3, true}, {"-0x1p-3", -0.125, true},
	{"0x1p-1074", 0x1p-1074, true}, {"2.2250738585072014e-308", 2.2250738585072014e-308, true},
	{"1e-400", 0, true}, {"1e300", 1e300, true},
	{"inf", math.Inf(1), true}, {"INF", math.Inf(1), true}, {"-Infinity", math.Inf(-1), true},
	{"", 0, false}, {" ", 0, false}, {"x", 0, false}, {"1x", 0, false}, {"1 ", 0, false}, {"1e", 0, false},
	{"infin", 0, false}, {"0x", 0, false}, {"1_0", 0, false}, {".e1", 0, false}, {"0x1p", 0, false},
	{"4.9e-324", 0x1p-1074, true}, {"2.2250738585072011e-308", 2.2250738585072011e-308, true}, {"1e-320", 1e-320, true},
	{"1e309", 0, false}, {"-1e309", 0, false}, {"0x1p1024", 0, false},
	{",5", 0, false}, {"1,5", 0, false}, {"+", 0, false}, {"-", 0, false}, {"- 1", 0, false}, {"--1", 0, false},
	{"0x_1p0", 0, false}, {"1e+", 0, false}, {"nan(", 0, false}, {"nanx", 0, false},
}

// nanTests are what strtod reads whole as a NaN.
var nanTests = []string{"nan", "NaN", "nan()", "nan(12_ab)", " -NAN", "+nan(x)"}

func TestStrtod(t *testing.T) {
	for _, tt := range strtodTests {
		got, ok := Strtod(tt.in)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("Strtod(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	for _, in := range nanTests {
		if v, ok := Strtod(in); !ok || !math.IsNaN(v) {
			t.Errorf("Strtod(%q) = %v, %v; want NaN", in, v, ok)
		}
	}
}

// strtoumaxTests: what GNU find 4.11 takes as the N of -inum N (after
// the +/- prefix).
var strtoumaxTests = []struct {
	in   string
	want uint64
	ok   bool
}{
	{"0", 0, true}, {"7", 7, true}, {"007", 7, true}, {"+7", 7, true}, {" \t\n\v\f\r7", 7, true}, {" +7", 7, true},
	{"18446744073709551615", math.MaxUint64, true},
	{"18446744073709551616", 0, false}, {"99999999999999999999", 0, false},
	{"", 0, false}, {" ", 0, false}, {"+", 0, false}, {"-7", 0, false}, {"-0", 0, false}, {"++7", 0, false},
	{"+ 7", 0, false}, {"7 ", 0, false}, {"7x", 0, false}, {"0x10", 0, false}, {"1_0", 0, false},
	{"1e3", 0, false}, {"1.0", 0, false}, {"\u00a07", 0, false},
}

func TestStrtoumax(t *testing.T) {
	for _, tt := range strtoumaxTests {
		got, ok := Strtoumax(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("Strtoumax(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzStrtod checks what follows from strtod's grammar: leading white
// space and a '-' change nothing but the sign, nothing may follow a
// number, and a finite result is what Go reads from the same digits.
func FuzzStrtod(f *testing.F) {
	for _, tt := range strtodTests {
		f.Add(tt.in)
	}
	for _, in := range nanTests {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := Strtod(s)
		if !ok && v != 0 {
			t.Errorf("Strtod(%q) = %v, false; want 0", s, v)
		}
		if v2, ok2 := Strtod(" \t" + s); ok2 != ok || !same(v2, v) {
			t.Errorf("Strtod(%q) = %v, %v; with leading blanks %v, %v", s, v, ok, v2, ok2)
		}
		body := strings.TrimLeft(s, " \t\n\v\f\r")
		if !ok || strings.HasPrefix(body, "+") || strings.HasPrefix(body, "-") {
			return
		}
		if v2, ok2 := Strtod("-" + body); !ok2 || !same(v2, -v) {
			t.Errorf("Strtod(%q) = %v; Strtod(-%q) = %v, %v", s, v, body, v2, ok2)
		}
		if _, ok2 := Strtod(body + "z"); ok2 {
			t.Errorf("Strtod(%qz) took the trailing z", body)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		g := body
		if len(g) > 1 && g[0] == '0' && g[1]|0x20 == 'x' && !strings.ContainsAny(g, "pP") {
			g += "p0"
		}
		if w, err := strconv.ParseFloat(g, 64); err != nil || w != v {
			t.Errorf("Strtod(%q) = %v; strconv.ParseFloat(%q) = %v, %v", s, v, g, w, err)
		}
	})
}

// FuzzStrtoumax checks Strtoumax against strconv.ParseUint on what is
// left after the blanks and the '+' that strtoumax skips.
func FuzzStrtoumax(f *testing.F) {
	for _, tt := range strtoumaxTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := Strtoumax(s)
		body := strings.TrimPrefix(strings.TrimLeft(s, " \t\n\v\f\r"), "+")
		w, err := strconv.ParseUint(body, 10, 64)
		if want := err == nil && body != "" && body[0] != '+'; ok != want || (ok && n != w) {
			t.Errorf("Strtoumax(%q) = %v, %v; strconv.ParseUint(%q) = %v, %v", s, n, ok, body, w, err)
		}
	})
}

// same is == for results that may be NaN.
func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
