package report

import _ "embed"

// The echarts script inlined into every report, so that a report opens with
// no network. It is Apache ECharts' dist/echarts.min.js from the npm package
// echarts@EchartsVersion, vendored in assets/echarts/ with the package's
// LICENSE (Apache-2.0), NOTICE and LICENSE-d3 as Apache-2.0 Sec. 4 requires
// for redistribution. It is committed rather than fetched at build time so
// that `go build`, `go test ./...` and `go install` work on a fresh clone
// without npm or network (go:embed needs the file at compile time).
// `make echarts` fetches the same version with `npm pack` and checks it
// against EchartsSHA256 (TestVendoredEcharts checks the embedded copy).
//
// 5.x rather than 6.x: go-echarts v2.6 writes options for echarts 5 (its own
// default asset is an echarts 5 build).
const (
	EchartsVersion = "5.6.0"
	EchartsSHA256  = "bf4a223524e40b77c304bec67e1222cf551f14880cf42c69dc046558e11c07b1"
)

//go:embed assets/echarts/echarts.min.js
var echartsJS string
