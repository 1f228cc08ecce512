package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"maps"
	"math"
	"slices"
	"time"
)

// Games, users, reply tokens and outbox mails are stored in a binary form
// of numbered fields, which costs a fraction of JSON to read and write: a
// move mail reads and writes its board, reads its players and writes two
// tokens and two replies, under the write lock, where one core works.
// Like JSON it lets later versions add fields without a migration:
// a reader skips a field it does not know, and a field a record lacks
// reads as its zero value. Records written in JSON before it still read,
// and are written in the binary form when next stored.
//
//	record = 0x01 field*            (a JSON record starts with '{')
//	field  = uvarint(number<<3 | kind) value
//	kind 0: uvarint: a count, a bool (1), an int (zigzag: 0, -1, 1, -2, ...)
//	kind 1: 8 bytes, little-endian: a float64
//	kind 2: uvarint length, then as many bytes: a string; a time
//	        (time.Time.AppendBinary); a record (its fields, without the
//	        0x01); a list (uvarint count, then each element as a
//	        length-prefixed string or record); a map (uvarint count, then
//	        each key as a length-prefixed string and its value)
//
// A zero value is not written, except an empty list where JSON writes []
// rather than null (a field without omitempty): it reads back empty, not
// nil. Field numbers are for ever: a field that goes away leaves its
// number unused.
const recordMark = 0x01

const (
	kindVarint  = 0
	kindFixed64 = 1
	kindBytes   = 2
)

var errRecord = errors.New("malformed binary record")

// isJSON reports whether the stored record v is in JSON, as written before
// the binary form.
func isJSON(v []byte) bool { return len(v) > 0 && v[0] == '{' }

// A recordWriter appends a record's fields.
type recordWriter struct {
	b   []byte
	err error
}

func newRecordWriter(size int) *recordWriter {
	return &recordWriter{b: append(make([]byte, 0, size), recordMark)}
}

func (w *recordWriter) key(field, kind int) {
	w.b = binary.AppendUvarint(w.b, uint64(field)<<3|uint64(kind))
}

func (w *recordWriter) uint(field int, v uint64) {
	if v != 0 {
		w.key(field, kindVarint)
		w.b = binary.AppendUvarint(w.b, v)
	}
}

func zigzag(v int) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzigzag(v uint64) int { return int(v>>1) ^ -int(v&1) }

func (w *recordWriter) int(field, v int) { w.uint(field, zigzag(v)) }

func (w *recordWriter) bool(field int, v bool) {
	if v {
		w.uint(field, 1)
	}
}

func (w *recordWriter) float(field int, v float64) {
	if bits := math.Float64bits(v); bits != 0 {
		w.key(field, kindFixed64)
		w.b = binary.LittleEndian.AppendUint64(w.b, bits)
	}
}

func (w *recordWriter) string(field int, s string) {
	if s != "" {
		w.key(field, kindBytes)
		w.str(s)
	}
}

func (w *recordWriter) bytes(field int, v []byte) {
	if len(v) > 0 {
		w.key(field, kindBytes)
		w.b = binary.AppendUvarint(w.b, uint64(len(v)))
		w.b = append(w.b, v...)
	}
}

// str appends a length-prefixed string: a field's value or a list's element.
func (w *recordWriter) str(s string) {
	w.b = binary.AppendUvarint(w.b, uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *recordWriter) time(field int, t time.Time) {
	if t.IsZero() {
		return
	}
	w.key(field, kindBytes)
	w.sized(func() {
		var err error
		if w.b, err = t.AppendBinary(w.b); err != nil && w.err == nil {
			w.err = err
		}
	})
}

// record appends a field holding a record that put writes.
func (w *recordWriter) record(field int, put func()) {
	w.key(field, kindBytes)
	w.sized(put)
}

// sized appends what put appends, prefixed with its length.
func (w *recordWriter) sized(put func()) {
	// Most values are shorter than 128 bytes: one byte for the length,
	// moved over only when it needs more.
	w.b = append(w.b, 0)
	start := len(w.b)
	put()
	n := len(w.b) - start
	if n < 0x80 {
		w.b[start-1] = byte(n)
		return
	}
	var prefix [binary.MaxVarintLen64]byte
	l := binary.PutUvarint(prefix[:], uint64(n))
	w.b = append(w.b, prefix[1:l]...)
	copy(w.b[start-1+l:], w.b[start:start+n])
	copy(w.b[start-1:], prefix[:l])
}

// list appends a list field of n elements, each appended by put(i). An
// empty list is written only when keepEmpty is set.
func (w *recordWriter) list(field, n int, keepEmpty bool, put func(i int)) {
	if n == 0 && !keepEmpty {
		return
	}
	w.key(field, kindBytes)
	w.sized(func() {
		w.b = binary.AppendUvarint(w.b, uint64(n))
		for i := range n {
			put(i)
		}
	})
}

// strings appends a list of strings; keepEmpty as for list.
func (w *recordWriter) strings(field int, s []string, keepEmpty bool) {
	w.list(field, len(s), keepEmpty, func(i int) { w.str(s[i]) })
}

// records appends a list of records, each written by put(i).
func (w *recordWriter) records(field, n int, keepEmpty bool, put func(i int)) {
	w.list(field, n, keepEmpty, func(i int) { w.sized(func() { put(i) }) })
}

// mapField appends a map field, its keys in order, each value appended by
// put.
func mapField[V any](w *recordWriter, field int, m map[string]V, put func(v V)) {
	keys := slices.Sorted(maps.Keys(m))
	w.list(field, len(keys), false, func(i int) {
		w.str(keys[i])
		put(m[keys[i]])
	})
}

// maxReserve bounds the elements a list or map read reserves ahead of
// reading them: a count is checked only against the bytes left, and an
// element can take one byte.
const maxReserve = 1024

// A recordReader reads the fields of a record. A malformed record sets
// err; the reads after it return zero values.
type recordReader struct {
	b   []byte
	err error
}

// readRecord calls fields with a reader of the binary record v.
func readRecord(v []byte, fields func(r *recordReader)) error {
	if len(v) == 0 || v[0] != recordMark {
		return errors.New("neither JSON nor a binary record")
	}
	r := &recordReader{b: v[1:]}
	fields(r)
	return r.err
}

func (r *recordReader) fail() {
	if r.err == nil {
		r.err = errRecord
	}
	r.b = nil
}

// each calls fn with the number and kind of each field left; fn reads or
// skips the field's value.
func (r *recordReader) each(fn func(field, kind int)) {
	for len(r.b) > 0 && r.err == nil {
		k := r.uvarint()
		fn(int(k>>3), int(k&7))
	}
}

func (r *recordReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// sized returns the next length-prefixed value.
func (r *recordReader) sized() []byte {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// want checks that a field has the kind its number is read as.
func (r *recordReader) want(kind, is int) bool {
	if kind != is {
		r.fail()
	}
	return r.err == nil
}

func (r *recordReader) skip(kind int) {
	switch kind {
	case kindVarint:
		r.uvarint()
	case kindFixed64:
		if len(r.b) < 8 {
			r.fail()
			return
		}
		r.b = r.b[8:]
	case kindBytes:
		r.sized()
	default:
		r.fail()
	}
}

func (r *recordReader) uint(kind int) uint64 {
	if !r.want(kind, kindVarint) {
		return 0
	}
	return r.uvarint()
}

func (r *recordReader) int(kind int) int { return unzigzag(r.uint(kind)) }

func (r *recordReader) bool(kind int) bool { return r.uint(kind) != 0 }

func (r *recordReader) float(kind int) float64 {
	if !r.want(kind, kindFixed64) || len(r.b) < 8 {
		r.fail()
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return v
}

func (r *recordReader) string(kind int) string {
	if !r.want(kind, kindBytes) {
		return ""
	}
	return string(r.sized())
}

// bytes reads a field of bytes into a slice of its own: the record's
// bytes are valid only in their transaction.
func (r *recordReader) bytes(kind int) []byte {
	if !r.want(kind, kindBytes) {
		return nil
	}
	return bytes.Clone(r.sized())
}

func (r *recordReader) time(kind int) time.Time {
	var t time.Time
	if r.want(kind, kindBytes) && t.UnmarshalBinary(r.sized()) != nil {
		r.fail()
	}
	return t
}

// record reads a field holding a record, calling fields with its reader.
func (r *recordReader) record(kind int, fields func(r *recordReader)) {
	if !r.want(kind, kindBytes) {
		return
	}
	sub := &recordReader{b: r.sized()}
	fields(sub)
	if sub.err != nil {
		r.fail()
	}
}

// list reads a list field: it returns a reader of the elements and their
// count, or a nil reader when the field is malformed.
func (r *recordReader) list(kind int) (*recordReader, int) {
	if !r.want(kind, kindBytes) {
		return nil, 0
	}
	sub := &recordReader{b: r.sized()}
	n := sub.uvarint()
	if sub.err != nil || n > uint64(len(sub.b)) { // each element takes a byte at least
		r.fail()
		return nil, 0
	}
	return sub, int(n)
}

// readList reads a list field, each element by elem.
func readList[T any](r *recordReader, kind int, elem func(r *recordReader) T) []T {
	sub, n := r.list(kind)
	if sub == nil {
		return nil
	}
	s := make([]T, 0, min(n, maxReserve)) // a corrupt count reserves little
	for i := 0; i < n && sub.err == nil; i++ {
		s = append(s, elem(sub))
	}
	if sub.err != nil || len(sub.b) > 0 {
		r.fail()
		return nil
	}
	return s
}

func (r *recordReader) strings(kind int) []string {
	return readList(r, kind, func(r *recordReader) string { return string(r.sized()) })
}

// element reads a record element of a list.
func element[T any](fields func(r *recordReader, v *T)) func(r *recordReader) T {
	return func(r *recordReader) T {
		var v T
		r.record(kindBytes, func(sub *recordReader) { fields(sub, &v) })
		return v
	}
}

// readMap reads a map field, each value by value.
func readMap[V any](r *recordReader, kind int, value func(r *recordReader) V) map[string]V {
	sub, n := r.list(kind)
	if sub == nil {
		return nil
	}
	m := make(map[string]V, min(n, maxReserve))
	for i := 0; i < n && sub.err == nil; i++ {
		k := string(sub.sized())
		m[k] = value(sub)
	}
	if sub.err != nil || len(sub.b) > 0 {
		r.fail()
		return nil
	}
	return m
}
