package report

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromium finds a headless-capable Chromium: Debian's chromium package
// (`make test` installs it where missing), or $CHROMIUM.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("skipping the browser test: no chromium on this machine (make test installs Debian's chromium with apt-get; " +
		"here it could not be installed). Install it with: apt-get update && apt-get install -y chromium")
	return ""
}

// headless runs Chromium on a file with the flags that work in this
// container: no sandbox (root), no GPU, no network side traffic, a fresh
// profile.
func headless(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	flags := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--virtual-time-budget=10000"}
	cmd := exec.CommandContext(ctx, bin, append(flags, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return stdout.Bytes()
}

// probe runs first in the page: it records errors (uncaught exceptions,
// rejected promises, console.error and console.warn, which echarts uses for
// bad options) and, after load, whether each chart container holds a canvas
// with something drawn on it, then writes its findings into the page.
const probe = `<script>
(function () {
  var errs = [];
  window.addEventListener('error', function (e) { errs.push('uncaught: ' + e.message + ' at line ' + e.lineno); }, true);
  window.addEventListener('unhandledrejection', function (e) { errs.push('unhandled rejection: ' + e.reason); });
  ['error', 'warn'].forEach(function (k) {
    var orig = console[k];
    console[k] = function () { errs.push('console.' + k + ': ' + Array.prototype.join.call(arguments, ' ')); orig.apply(console, arguments); };
  });
  window.addEventListener('load', function () {
    setTimeout(function () {
      var charts = [];
      document.querySelectorAll('div.item').forEach(function (div) {
        var c = div.querySelector('canvas'), r = {id: div.id, canvas: !!c, width: 0, height: 0, inked: 0};
        if (c) {
          r.width = c.width; r.height = c.height;
          try {
            var d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            for (var i = 3; i < d.length; i += 4) { if (d[i] > 0) { r.inked++; } }
          } catch (e) { errs.push('probe: ' + e); }
        }
        charts.push(r);
      });
      var out = document.createElement('pre');
      out.id = 'yarngym-probe';
      out.textContent = JSON.stringify({errors: errs, charts: charts, height: document.body.scrollHeight,
        echarts: (typeof echarts === 'undefined') ? '' : echarts.version});
      document.body.appendChild(out);
    }, 300);
  });
})();
</script>`

type probeResult struct {
	Errors []string `json:"errors"`
	Charts []struct {
		ID     string `json:"id"`
		Canvas bool   `json:"canvas"`
		Width  int    `json:"width"`
		Height int    `json:"height"`
		Inked  int    `json:"inked"`
	} `json:"charts"`
	Height  int    `json:"height"`
	Echarts string `json:"echarts"`
}

var probeRe = regexp.MustCompile(`(?s)<pre id="yarngym-probe">(.*?)</pre>`)

// TestBrowser opens report.html in headless Chromium: every chart container
// must hold a canvas with something drawn on it, and the console must show
// no error or warning. It saves a full-page screenshot as report.png in the
// test's artifact folder (kept with: go test -artifacts -outputdir DIR).
// The report is the quick suite's plus a toy reproduction table, or the file
// named by $YARNGYM_REPORT (to check a report of another suite).
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	var page []byte
	if p := os.Getenv("YARNGYM_REPORT"); p != "" {
		var err error
		if page, err = os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
	} else {
		_, page = saved(t, results(t, 2))
	}
	dir := t.TempDir()
	probed := strings.Replace(string(page), "<head>", "<head>\n"+probe, 1)
	probePath := filepath.Join(dir, "probed.html")
	if err := os.WriteFile(probePath, []byte(probed), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := headless(t, bin, "--dump-dom", "file://"+probePath)
	m := probeRe.FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the probe did not report (page did not load or scripts did not run); DOM tail:\n%s", tail(dom, 2000))
	}
	var pr probeResult
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &pr); err != nil {
		t.Fatalf("probe output: %v\n%s", err, m[1])
	}
	if pr.Echarts != EchartsVersion {
		t.Errorf("echarts version in the page %q, want %s", pr.Echarts, EchartsVersion)
	}
	for _, e := range pr.Errors {
		t.Errorf("console: %s", e)
	}
	want := len(itemRe.FindAll(page, -1))
	if len(pr.Charts) != want || want == 0 {
		t.Errorf("the page has %d chart containers, the HTML %d", len(pr.Charts), want)
	}
	for _, c := range pr.Charts {
		if !c.Canvas || c.Width == 0 || c.Height == 0 || c.Inked < 1000 {
			t.Errorf("chart %s not rendered: canvas %v, %dx%d, %d drawn pixels", c.ID, c.Canvas, c.Width, c.Height, c.Inked)
		}
	}

	reportPath := filepath.Join(dir, File)
	if err := os.WriteFile(reportPath, page, 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(t.ArtifactDir(), "report.png")
	height := min(max(pr.Height+40, 800), 16000)
	headless(t, bin, "--hide-scrollbars", "--window-size=1100,"+itoa(height), "--screenshot="+shot, "file://"+reportPath)
	fi, err := os.Stat(shot)
	if err != nil || fi.Size() < 10000 {
		t.Fatalf("screenshot %s: %v", shot, err)
	}
	t.Logf("%d charts rendered, no console errors; screenshot: %s", len(pr.Charts), shot)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
