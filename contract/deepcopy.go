package contract

import (
	"maps"
	"reflect"
	"sync"
	"time"
)

// Snapshot is a deep copy of the state, taken before an action so that a
// rejected action leaves the state exactly as it was. Copying in memory costs
// microseconds where encoding the state costs milliseconds.
//
// The engine no longer copies the state to try an action (see State.Begin);
// Snapshot remains for the checks of undo and for comparisons.
func Snapshot(s *State) *State {
	cp := deepCopy(reflect.ValueOf(s)).Interface().(*State)
	cp.ax, cp.Ledger.undo = nil, nil
	return cp
}

// deepCopy copies pointers, maps, slices and interfaces recursively. Structs are
// copied whole first (so unexported fields such as a time.Time's location are
// kept), then their exported reference fields are replaced by copies. The state
// holds no cycles.
func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Type().Elem())
		n.Elem().Set(deepCopy(v.Elem()))
		return n
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Type()).Elem()
		n.Set(deepCopy(v.Elem()))
		return n
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		// The common maps of plain values are cloned whole (the processed-
		// message memory holds thousands of entries).
		switch m := v.Interface().(type) {
		case map[string]time.Time:
			return reflect.ValueOf(maps.Clone(m))
		case map[string]string:
			return reflect.ValueOf(maps.Clone(m))
		case map[string]int:
			return reflect.ValueOf(maps.Clone(m))
		}
		n := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			n.SetMapIndex(it.Key(), deepCopy(it.Value()))
		}
		return n
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		if isPlain(v.Type().Elem()) {
			reflect.Copy(n, v)
			return n
		}
		for i := 0; i < v.Len(); i++ {
			n.Index(i).Set(deepCopy(v.Index(i)))
		}
		return n
	case reflect.Array:
		n := reflect.New(v.Type()).Elem()
		n.Set(v)
		if !isPlain(v.Type().Elem()) {
			for i := 0; i < v.Len(); i++ {
				n.Index(i).Set(deepCopy(v.Index(i)))
			}
		}
		return n
	case reflect.Struct:
		n := reflect.New(v.Type()).Elem()
		n.Set(v)
		for _, i := range refFields(v.Type()) {
			n.Field(i).Set(deepCopy(v.Field(i)))
		}
		return n
	default:
		return v
	}
}

// refFields lists the exported fields of struct type t that hold
// references to copy, found once for each type (a game's data copied for
// the undo log is thousands of structs of a few types).
func refFields(t reflect.Type) []int {
	if f, ok := refFieldsOf.Load(t); ok {
		return f.([]int)
	}
	var out []int
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.IsExported() && !isPlain(f.Type) {
			out = append(out, i)
		}
	}
	refFieldsOf.Store(t, out)
	return out
}

var refFieldsOf, plainOf sync.Map // by reflect.Type: refFields's and isPlain's answers

// isPlain reports whether a type holds no references to copy.
func isPlain(t reflect.Type) bool {
	if p, ok := plainOf.Load(t); ok {
		return p.(bool)
	}
	p := plainType(t)
	plainOf.Store(t, p)
	return p
}

func plainType(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return false
	case reflect.Array:
		return isPlain(t.Elem())
	case reflect.Struct:
		if t.PkgPath() == "time" && t.Name() == "Time" {
			return true
		}
		for i := 0; i < t.NumField(); i++ {
			if !isPlain(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return true
}
