//go:build !linux

package main

import "errors"

func spreadDirs(string) error { return errors.New("not on Linux") }
