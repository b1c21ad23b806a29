package store

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/benbjohnson/litestream"
	lsfile "github.com/benbjohnson/litestream/file"
	lss3 "github.com/benbjohnson/litestream/s3"
	lssftp "github.com/benbjohnson/litestream/sftp"
)

// The environment variables an sftp:// replica takes its secrets from; the
// URL names the account and the place only.
const (
	EnvSFTPPassword = "TEND_REPLICA_SFTP_PASSWORD"
	EnvSFTPKey      = "TEND_REPLICA_SFTP_KEY"      // path of a private key file
	EnvSFTPHostKey  = "TEND_REPLICA_SFTP_HOST_KEY" // the server's key, as in known_hosts without the host name
)

// replicaClient makes the Litestream client for a replica URL and names it
// without credentials or query for logs and status:
//
//   - file:///absolute/path
//   - s3://bucket/path, with ?endpoint=URL (and region=, force-path-style=,
//     skip-verify=) for S3-compatible stores; keys from AWS_ACCESS_KEY_ID and
//     AWS_SECRET_ACCESS_KEY, or the AWS SDK's usual chain;
//   - sftp://user@host[:port]/path, the path relative to the account's home;
//     the server's host key from TEND_REPLICA_SFTP_HOST_KEY (required), a
//     password from TEND_REPLICA_SFTP_PASSWORD or a key file named by
//     TEND_REPLICA_SFTP_KEY.
//
// A password in the URL, or in the URL of its endpoint, is refused: a URL
// ends up in shell histories, unit files and process listings.
func replicaClient(raw string) (litestream.ReplicaClient, string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, "", fmt.Errorf("replica URL %q does not parse", redactURL(raw))
	}
	if _, has := u.User.Password(); has {
		return nil, "", errors.New("the replica URL holds a password: give credentials in the environment instead (see docs/backup.md)")
	}
	for _, ep := range u.Query()["endpoint"] {
		eu, err := url.Parse(ep)
		if err != nil {
			return nil, "", fmt.Errorf("the replica URL's endpoint %q does not parse", redactURL(ep))
		}
		if _, has := eu.User.Password(); has {
			return nil, "", errors.New("the replica URL's endpoint holds a password: give credentials in the environment instead (see docs/backup.md)")
		}
	}
	name := (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
	if u.User != nil {
		name = (&url.URL{Scheme: u.Scheme, User: url.User(u.User.Username()), Host: u.Host, Path: u.Path}).String()
	}
	switch u.Scheme {
	case "file":
		if u.Host != "" || !filepath.IsAbs(u.Path) {
			return nil, "", fmt.Errorf("a file replica is file:///absolute/path, not %q", name)
		}
		return lsfile.NewReplicaClient(filepath.Clean(u.Path)), "file://" + filepath.Clean(u.Path), nil
	case "s3":
		if u.User != nil {
			return nil, "", errors.New("an s3 replica URL takes no user: give keys in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
		}
		if u.Host == "" {
			return nil, "", errors.New("an s3 replica is s3://bucket/path")
		}
		adoptCABundle()
		c, err := lss3.NewReplicaClientFromURL(u.Scheme, u.Host, strings.TrimPrefix(u.Path, "/"), u.Query(), nil)
		if err != nil {
			return nil, "", fmt.Errorf("replica %s: %w", name, err)
		}
		return c, name, nil
	case "sftp":
		return sftpClient(u, name)
	}
	return nil, "", fmt.Errorf("replica URL %q: the scheme must be file, s3 or sftp", name)
}

func sftpClient(u *url.URL, name string) (litestream.ReplicaClient, string, error) {
	if u.User == nil || u.User.Username() == "" || u.Hostname() == "" {
		return nil, "", errors.New("an sftp replica is sftp://user@host[:port]/path")
	}
	hostKey := os.Getenv(EnvSFTPHostKey)
	if hostKey == "" {
		return nil, "", fmt.Errorf("an sftp replica needs the server's host key in %s (such as the output of ssh-keyscan HOST without the host name): tend does not connect to an unverified host", EnvSFTPHostKey)
	}
	c := lssftp.NewReplicaClient()
	c.Host = u.Host
	c.User = u.User.Username()
	c.Path = strings.TrimPrefix(filepath.Clean("/"+u.Path), "/")
	c.HostKey = hostKey
	c.Password = os.Getenv(EnvSFTPPassword)
	c.KeyPath = os.Getenv(EnvSFTPKey)
	if c.Password == "" && c.KeyPath == "" {
		return nil, "", fmt.Errorf("an sftp replica needs %s or %s", EnvSFTPPassword, EnvSFTPKey)
	}
	return c, name, nil
}

// adoptCABundle works around Litestream's S3 client and AWS_CA_BUNDLE: the
// client builds its own *http.Client, which the AWS SDK cannot add a CA
// bundle to, so with AWS_CA_BUNDLE set every S3 replica fails to start
// ("unable to add custom RootCAs HTTPClient"). Go's TLS reads the same
// bundle from SSL_CERT_FILE, so it is moved there (unless that is set).
func adoptCABundle() {
	bundle, ok := os.LookupEnv("AWS_CA_BUNDLE")
	if !ok {
		return
	}
	if _, set := os.LookupEnv("SSL_CERT_FILE"); !set && bundle != "" {
		_ = os.Setenv("SSL_CERT_FILE", bundle)
	}
	_ = os.Unsetenv("AWS_CA_BUNDLE")
}

// redactURL names a URL that may not parse, for an error message: its
// scheme and what follows an @, never what precedes it.
func redactURL(raw string) string {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return "(not a URL)"
	}
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		rest = rest[at+1:]
	}
	if q := strings.IndexAny(rest, "?#"); q >= 0 {
		rest = rest[:q]
	}
	return scheme + "://" + rest
}
