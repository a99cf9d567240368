CREATE TABLE api_keys (
    id UUID PRIMARY KEY,
    user_id UUID NOT NULL REFERENCES users (id),
    label TEXT NOT NULL,
    prefix TEXT NOT NULL
);
