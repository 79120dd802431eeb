// Package telegraf is a stand-in for the plugin interfaces of
// github.com/influxdata/telegraf, as much as the fixtures use.
package telegraf

type Metric interface {
	Name() string
}

type Accumulator interface {
	AddFields(measurement string, fields map[string]any, tags map[string]string)
}

type Input interface {
	Gather(Accumulator) error
}

type Output interface {
	Write(metrics []Metric) error
}
