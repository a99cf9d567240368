package limiter

import "golang.org/x/time/rate"

type Config struct {
	RPS   float64
	Burst int
}

type Limiter struct {
	cfg  Config
	keys map[string]*rate.Limiter
}

func New(cfg Config) *Limiter {
	return &Limiter{cfg: cfg, keys: map[string]*rate.Limiter{}}
}

func (l *Limiter) For(key string) *rate.Limiter {
	if lim, ok := l.keys[key]; ok {
		return lim
	}
	lim := rate.NewLimiter(rate.Limit(l.cfg.RPS), l.cfg.Burst)
	l.keys[key] = lim
	return lim
}
