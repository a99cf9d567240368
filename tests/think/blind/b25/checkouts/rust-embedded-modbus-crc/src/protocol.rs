//! RTU frame parsing.
use heapless::Vec;

#[derive(Debug, PartialEq, defmt::Format)]
pub enum FrameError {
    TooShort,
    BadAddress,
}

pub struct Frame<'a> {
    pub addr: u8,
    pub func: u8,
    pub data: &'a [u8],
}

pub fn parse(buf: &[u8], my_addr: u8) -> Result<Frame<'_>, FrameError> {
    if buf.len() < 4 {
        return Err(FrameError::TooShort);
    }
    if buf[0] != my_addr && buf[0] != 0 {
        return Err(FrameError::BadAddress);
    }
    Ok(Frame { addr: buf[0], func: buf[1], data: &buf[2..buf.len() - 2] })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_short() {
        assert_eq!(parse(&[1, 3, 0], 1).err(), Some(FrameError::TooShort));
    }

    #[test]
    fn parses_read_holding() {
        let f = parse(&[0x01, 0x03, 0x00, 0x10, 0x00, 0x02, 0xC5, 0xCE], 1).unwrap();
        assert_eq!(f.func, 0x03);
        assert_eq!(f.data, &[0x00, 0x10, 0x00, 0x02]);
    }
}
